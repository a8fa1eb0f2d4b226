export * from './resource';
export { ResourceCatalog, GroupVersions, compareVersions } from './catalog';
export { parseRuntimeConfig, isServed, RuntimeConfig, RuntimeConfigError } from './runtime-config';
export { defaultTable, nameColumn, ageColumn, column, humanDuration, age } from './table';
export {
  ResourceStore,
  WriteOptions,
  UpdateOptions,
  DeleteOptions,
  PropagationPolicy,
  ListPredicate,
  ListOptions,
  UpdateResult,
  DeleteResult,
  everything,
} from './store/resource-store';
export { objectKey, collectionPrefix, resourcePrefix } from './store/keys';
export { decodeObject, encodeObject } from './store/codec';
export { stableJson } from './store/object-meta';
export { interpretStorageError } from './store/interpret-storage-error';
export { builtinDefinitions } from './resources';
export { StoreInformer, InformerHandler } from './store/informer';
export { localSubjectAccessReviewBadRequest, selfSubjectRulesReviewBadRequest } from './resources/authorization';
export { tokenReviewBadRequest } from './resources/authentication';
export { addDefaultTolerations, admitPriority, admitRuntimeClass, keepPriority, mergeTolerations } from './resources/core';
export { formatQuantity, parseQuantity } from './resources/core';
export {
  copyImagePullSecrets,
  defaultServiceAccount,
  defaultServiceAccountName,
  isMirrorPod,
  limitSecretReferences,
  mountServiceAccountToken,
  ServiceAccount,
  serviceAccountTokenMountPath,
  serviceAccountVolumePrefix,
  shouldAutomount,
  tokenVolume,
  validateMirrorPod,
} from './resources/core';
export {
  customResourceDefinitionDefinition,
  customResourceDefinitionsOf,
  toRegistrySchema,
  printerValue,
  validateValue,
  applyDefaults,
  CrdObject,
  CrdNames,
  CrdVersion,
  CrdCondition,
  customResourceCleanupFinalizer,
  crdCondition,
  isEstablished,
  setCrdCondition,
} from './resources/apiextensions';
