// JSON merge patch (RFC 7386, application/merge-patch+json), with the null handling of
// github.com/evanphx/json-patch v4.12.0, the library Kubernetes v1.28 applies it with:
//
//   - a null member deletes the member; an object member merges into an object target
//     recursively; anything else (arrays included) replaces the target member;
//   - a value that replaces (rather than merges into) an object target has its null object
//     members dropped at every depth, inside arrays too; null array elements are kept. RFC 7386
//     drops them only along the object path and copies arrays verbatim;
//   - a patch that is not an object replaces the whole document.
//
// applyMergePatch is the RFC function and never fails. mergePatch is jsonpatch.MergePatch as the
// apiserver calls it for a PATCH request:
//
//   patch body        status  reason      message
//   object            -       -           merged into the current object
//   array             -       -           replaces the object (decoding then rejects it)
//   null or scalar    400     BadRequest  Invalid JSON Patch
import { badRequest } from './errors';
import { cloneJson, deleteOwn, hasOwn, isObject, JsonObject, setOwn } from './json';

// errBadJSONPatch is evanphx's ErrBadJSONPatch, which the handler answers with NewBadRequest.
const errBadJSONPatch = 'Invalid JSON Patch';

// applyMergePatch returns the target with the patch merged in. Neither argument is changed.
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return pruneNulls(cloneJson(patch));
  const doc = isObject(target) ? (cloneJson(target) as JsonObject) : {};
  mergeDocs(doc, cloneJson(patch) as JsonObject);
  return doc;
}

// mergePatch is applyMergePatch behind the apiserver's check of the patch body: evanphx reads a
// null or scalar body as a malformed patch, and the handler answers 400.
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch) && !Array.isArray(patch)) throw badRequest(errBadJSONPatch);
  return applyMergePatch(target, patch);
}

// mergeDocs merges patch into doc in place; both are private copies.
function mergeDocs(doc: JsonObject, patch: JsonObject): void {
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      deleteOwn(doc, key);
      continue;
    }
    const current = hasOwn(doc, key) ? doc[key] : null;
    setOwn(doc, key, current === null ? pruneNulls(value) : merge(current, value));
  }
}

// merge follows evanphx: a non-object target takes the pruned patch value, an object target
// takes a non-object patch value as it is and merges an object one.
function merge(current: unknown, patch: unknown): unknown {
  if (!isObject(current)) return pruneNulls(patch);
  if (!isObject(patch)) return patch;
  mergeDocs(current, patch);
  return current;
}

// pruneNulls drops null object members at every depth, keeping null array elements.
function pruneNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) pruneNulls(item);
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else pruneNulls(value[key]);
    }
  }
  return value;
}
