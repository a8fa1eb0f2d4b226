// OBJECT_STORE is the injection token of the ObjectStore an app runs on: a backend in the
// storage service and the all-in-one process, a GrpcObjectStore in the gateway and authz.
export const OBJECT_STORE = Symbol('ObjectStore');
