// patchShapeError is what kube-apiserver's strict decoding of a JSON or merge patch (under
// fieldValidation Warn, the default, and Strict) says of a patch of the wrong JSON type: the
// patch handler decodes a JSON patch into []handlers.jsonPatchOp and a merge patch into
// map[string]interface{} before applying it. Null decodes into either.
import { jsonKind } from './json';

export function patchShapeError(type: 'json' | 'merge', patch: unknown): string | null {
  if (patch === null) return null;
  if (type === 'merge') return isObject(patch) ? null : cannotUnmarshal(patch, 'map[string]interface {}');
  if (!Array.isArray(patch)) return cannotUnmarshal(patch, '[]handlers.jsonPatchOp');
  const item = patch.find((operation) => operation !== null && !isObject(operation));
  return item === undefined ? null : cannotUnmarshal(item, 'handlers.jsonPatchOp');
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cannotUnmarshal(value: unknown, goType: string): string {
  return `error decoding patch: json: cannot unmarshal ${jsonKind(value)} into Go value of type ${goType}`;
}

const jsonPatchOpFields = new Set(['op', 'path', 'from', 'value']);

// jsonPatchUnknownFields lists the members of a JSON patch's operations that jsonPatchOp does
// not declare, as the strict decoder names them: `[0].extra`.
export function jsonPatchUnknownFields(patch: unknown): string[] {
  if (!Array.isArray(patch)) return [];
  return patch.flatMap((op, i) => (op !== null && typeof op === 'object' && !Array.isArray(op) ? Object.keys(op).filter((k) => !jsonPatchOpFields.has(k)).map((k) => `[${i}].${k}`) : []));
}
