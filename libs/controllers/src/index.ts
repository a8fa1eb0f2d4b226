export * from './job';
export * from './daemonset';
export * from './namespace';
export * from './ttl-after-finished';
export * from './service-account';
export * from './garbage-collector';
