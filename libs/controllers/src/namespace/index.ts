export * from './conditions';
export * from './content';
