// The extra keys a pod-bound service account token adds to its user
// (authentication.kubernetes.io/pod-name and pod-uid; 1.28 has no node or credential-id keys).
export const PodNameKey = 'authentication.platform.io/pod-name';
export const PodUIDKey = 'authentication.platform.io/pod-uid';
