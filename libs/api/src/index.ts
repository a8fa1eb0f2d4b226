export * from './object';
export * from './schema';
export * from './schemas/meta';
export * from './schemas/core';
export * from './schemas/subresources';
export * from './types/batch';
export * from './types/rbac';
export * from './types/apps';
