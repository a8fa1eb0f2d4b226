
export * from './daemonset';
