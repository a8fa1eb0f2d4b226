export { namespaceDefinition, namespaceStrategy, finalizerKubernetes } from './namespaces';
export { podDefinition, podStrategy, podGracePeriodSeconds, podSelectableFields } from './pods';
export { nodeDefinition, nodeStrategy, nodeRoles } from './nodes';
export { serviceAccountDefinition, serviceAccountStrategy } from './serviceaccounts';
export { defaultPod, defaultPodSpec, defaultPodTemplateSpec, dropDisabledPodSpecFields, dropDisabledPodTemplateFields } from './pod-defaults';
export { validatePodSpec, validatePodTemplateSpec, validatePodCreate, validatePodUpdate, validatePodStatusUpdate, validateTolerations } from './pod-validation';
export { podQOSClass } from './pod-status';
export { summarizePod } from './pod-table';
export * from './quantity';
export { addDefaultTolerations, admitPriority, admitRuntimeClass, keepPriority, mergeTolerations } from './pod-admission';
export {
  copyImagePullSecrets,
  defaultServiceAccount,
  defaultServiceAccountName,
  isMirrorPod,
  limitSecretReferences,
  mountServiceAccountToken,
  serviceAccountTokenMountPath,
  serviceAccountVolumePrefix,
  shouldAutomount,
  tokenVolume,
  validateMirrorPod,
} from './pod-service-account';
export type { ServiceAccount } from './pod-service-account';
