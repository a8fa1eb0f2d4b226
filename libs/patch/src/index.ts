// The three PATCH formats of the Kubernetes API, as pure functions over decoded JSON: JSON merge
// patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch. Failures are PatchErrors
// carrying the Status Kubernetes v1.28 answers with.
export { PatchError, genericInvalidMessage } from './errors';
export { applyMergePatch, mergePatch } from './json-merge-patch';
export { applyJsonPatch, defaultJSONPatchMaxCopyBytes, maxJSONPatchOperations } from './json-patch';
export type { JsonPatchOperation, JsonPatchOptions } from './json-patch';
export { applyStrategicMergePatch } from './strategic-merge-patch';
export { goSprint } from './go-format';
export { jsonPatchUnknownFields, patchShapeError } from './patch-shape';
