export * from './names';
export * from './labels';
