export {
  storageClassDefinition,
  storageClassStrategy,
  validateStorageClass,
  validateStorageClassUpdate,
  isDefaultStorageClass,
  isDefaultClassAnnotation,
  betaIsDefaultClassAnnotation,
} from './storageclasses';
