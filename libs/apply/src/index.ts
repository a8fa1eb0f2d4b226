// Server-side apply and managed fields, as Kubernetes' field manager and structured-merge-diff.
export { FieldSet, fromObject } from './field-set';
export {
  comparePathElements,
  deserializePathElement,
  fieldElement,
  indexElement,
  keyElement,
  pathString,
  serializePathElement,
  valueElement,
} from './path-element';
export type { KeyField, Path, PathElement } from './path-element';
export { compare, merge, removeItems, withGoZeroValues } from './typed';
export type { Comparison } from './typed';
export {
  ancientChangesManager,
  capUpdateManagers,
  decodeManagedFields,
  defaultManagerName,
  encodeManagedFields,
  fieldManagerMaxLength,
  fieldManagerName,
  isResetManagedFields,
  kubeApiserverManager,
  managerIdentifier,
  maxUpdateManagers,
  statusResetFields,
  stripSet,
  updateManagedFields,
} from './managed-fields';
export type { Managed, UpdateManagedFieldsOptions, VersionedSet } from './managed-fields';
export { applyObject, conflictError, printManager } from './apply';
export { parentManagedFields, replicasFieldPath, scaleManagedFields } from './scale-handler';
export type { ApplyOptions, ApplyResult } from './apply';
export { typedValueErrors } from './typed-values';
export type { TypedValueError } from './typed-values';
