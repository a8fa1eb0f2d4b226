export {
  storageClassDefinition,
  storageClassStrategy,
  validateStorageClass,
  validateStorageClassUpdate,
  isDefaultStorageClass,
} from './storageclasses';
