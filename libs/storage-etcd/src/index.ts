export { EtcdObjectStore } from './etcd-object-store';
export { EtcdObjectStoreOptions } from './client';
