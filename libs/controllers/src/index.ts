export * from './job';
export * from './daemonset';
