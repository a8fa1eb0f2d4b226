export { EmbeddedObjectStore, EmbeddedObjectStoreOptions } from './embedded-object-store';
