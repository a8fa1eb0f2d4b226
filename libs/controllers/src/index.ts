export * from './job';
export * from './daemonset';
export * from './namespace';
