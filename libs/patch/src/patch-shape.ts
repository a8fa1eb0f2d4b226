// The strict decoding kube-apiserver v1.28 gives a JSON or merge patch body under
// fieldValidation Warn or Strict (jsonPatcher.applyJSPatch), before the patch is applied: a
// JSON patch must decode into []handlers.jsonPatchOp, a merge patch into map[string]interface{}.
// The handler answers a failure 400 "error decoding patch: <error>". Under Ignore no such
// decoding happens, and the patch libraries' own errors answer instead.
//
//   patch   body                                     error
//   json    not a list (nor null)                    json: cannot unmarshal <kind> into Go value of type []handlers.jsonPatchOp
//   json    an element not an object (nor null)      json: cannot unmarshal <kind> into Go value of type handlers.jsonPatchOp
//   json    op, path or from not a string (nor null) json: cannot unmarshal <kind> into Go struct field jsonPatchOp.<name> of type string
//   merge   not an object (nor null)                 json: cannot unmarshal <kind> into Go value of type map[string]interface {}
//
// encoding/json reports the first type error in document order.
import { getOwn, isObject, jsonKind } from './json';

const jsonPatchOpStringFields = ['op', 'path', 'from'];

// patchShapeError returns the strict decoder's error for a patch body of the wrong shape.
export function patchShapeError(type: 'json' | 'merge', patch: unknown): string | undefined {
  if (patch === null) return undefined;
  if (type === 'merge') return isObject(patch) ? undefined : `json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`;
  if (!Array.isArray(patch)) return `json: cannot unmarshal ${jsonKind(patch)} into Go value of type []handlers.jsonPatchOp`;
  for (const op of patch) {
    const error = jsonPatchOpError(op);
    if (error) return error;
  }
  return undefined;
}

function jsonPatchOpError(op: unknown): string | undefined {
  if (op === null) return undefined;
  if (!isObject(op)) return `json: cannot unmarshal ${jsonKind(op)} into Go value of type handlers.jsonPatchOp`;
  // fields in the order the body names them, as the decoder meets them
  for (const name of Object.keys(op)) {
    if (!jsonPatchOpStringFields.includes(name)) continue;
    const value = getOwn(op, name);
    if (value !== null && typeof value !== 'string') return `json: cannot unmarshal ${jsonKind(value)} into Go struct field jsonPatchOp.${name} of type string`;
  }
  return undefined;
}

const jsonPatchOpFields = new Set(['op', 'path', 'from', 'value']);

// jsonPatchUnknownFields lists the members of a JSON patch's operations that jsonPatchOp does
// not declare, as the strict decoder names them: `[0].extra`.
export function jsonPatchUnknownFields(patch: unknown): string[] {
  if (!Array.isArray(patch)) return [];
  return patch.flatMap((op, i) => (isObject(op) ? Object.keys(op).filter((k) => !jsonPatchOpFields.has(k)).map((k) => `[${i}].${k}`) : []));
}
