export { EtcdObjectStore } from './etcd-object-store';
export { EtcdObjectStoreOptions, EtcdTls } from './client';
