// The storage/v1 keys: the annotations that make a StorageClass the default
// (storageclass.kubernetes.io/is-default-class and its beta twin in Kubernetes).
export const IsDefaultStorageClassAnnotation = 'storageclass.platform.io/is-default-class';
export const BetaIsDefaultStorageClassAnnotation = 'storageclass.beta.platform.io/is-default-class';
