// JSON patch (RFC 6902, application/json-patch+json) as Kubernetes v1.28 applies it: decoded and
// applied by github.com/evanphx/json-patch v4.12.0 (the version 1.28 patch releases pin), in
// k8s.io/apiserver/pkg/endpoints/handlers/patch.go (jsonPatcher.applyJSPatch).
//
// Errors, in the order the handler meets them:
//
//   case                                        status  reason                 message
//   body not a list of operation objects        400     BadRequest             json: cannot unmarshal <kind> into Go value of type jsonpatch.Patch
//                                                                              (jsonpatch.Operation for an element)
//   more than maxJSONPatchOperations (10000)    413     RequestEntityTooLarge  Request entity too large: The allowed maximum operations in a JSON patch is 10000, got <n>
//   any operation fails (see below)             422     Invalid                the server rejected our request due to an error in our request
//
// A failing operation is answered through errors.NewGenericServerResponse(422, ...), which keeps
// only its generic message, so evanphx's text (kept in PatchError.detail) never reaches the
// client. The failures and their detail:
//
//   unknown op                          Unexpected kind: <op>
//   container of path missing           <op> operation does not apply: doc is missing path: "<path>": missing value
//                                       (replace, move, copy: without quotes; test: "is missing path")
//   remove of a missing object member   error in remove for path: '<path>': Unable to remove nonexistent key: <key>: missing value
//   array index out of range            error in <op> for path: '<path>': Unable to access invalid index: <i>: invalid index referenced
//   replace of a missing array element  replace operation does not apply: doc is missing key: <path>: missing value
//   test value differs                  testing value <path> failed: test failed
//   copies add up to over 3 MiB         Unable to complete the copy, the accumulated size increase of copy is <n>, exceeding the limit <m>
//
// Where evanphx v4 departs from RFC 6902, Kubernetes does too, and so does this file:
//   - the path "" (the whole document) is never found, so no operation applies to the root;
//   - the segment before the first "/" is ignored ("a/b" is "/b");
//   - array indexes are Go integers: negative ones count from the end (-1 is the last element,
//     or the end for add), and a sign or leading zeros are accepted;
//   - replace of a missing object member adds it, and copy from one copies null;
//   - test of a missing member passes when the value is null;
//   - an absent "value" is null.
// Values are compared as JSON values (1 equals 1.0), where evanphx compares the raw scalar text.
import { badRequest, requestEntityTooLarge, unprocessable } from './errors';
import { cloneJson, getOwn, hasOwn, isObject, jsonEqual, jsonKind, jsonSize, JsonObject, setOwn } from './json';

// maxJSONPatchOperations is the apiserver's limit on the operations of one JSON patch.
export const maxJSONPatchOperations = 10000;

// defaultJSONPatchMaxCopyBytes is the apiserver's JSONPatchMaxCopyBytes: how much "copy"
// operations may grow a document (twice etcd's 1.5 MiB request limit).
export const defaultJSONPatchMaxCopyBytes = 3 * 1024 * 1024;

export interface JsonPatchOperation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

export interface JsonPatchOptions {
  // maxCopyBytes bounds the accumulated size of copied values; 0 or less means no limit.
  maxCopyBytes?: number;
}

// applyJsonPatch applies the operations to a copy of doc and returns it; doc is not changed.
export function applyJsonPatch(doc: unknown, operations: unknown, options: JsonPatchOptions = {}): unknown {
  const ops = decodePatch(operations);
  if (ops.length > maxJSONPatchOperations) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${ops.length}`);
  }
  const root = cloneJson(doc);
  if (!isObject(root) && !Array.isArray(root)) throw unprocessable(`json: cannot unmarshal ${jsonKind(root)} into Go value of type jsonpatch.partialDoc`);
  const copies = { size: 0, limit: options.maxCopyBytes ?? defaultJSONPatchMaxCopyBytes };
  for (const op of ops) {
    const failure = applyOperation(root, op, copies);
    if (failure !== undefined) throw unprocessable(failure);
  }
  return root;
}

// decodePatch is jsonpatch.DecodePatch on an already parsed body: a list (or null) of objects
// (or nulls, which are operations of kind "unknown").
function decodePatch(operations: unknown): (JsonObject | null)[] {
  if (operations === null) return [];
  if (!Array.isArray(operations)) throw badRequest(`json: cannot unmarshal ${jsonKind(operations)} into Go value of type jsonpatch.Patch`);
  for (const op of operations) {
    if (op !== null && !isObject(op)) throw badRequest(`json: cannot unmarshal ${jsonKind(op)} into Go value of type jsonpatch.Operation`);
  }
  return operations as (JsonObject | null)[];
}

type Container = JsonObject | unknown[];

interface Target {
  container: Container;
  key: string;
}

// Outcome is a value, or the text of the error a container operation failed with.
type Outcome = { value: unknown } | { error: string };

const missing = 'missing value';
const invalidIndex = 'invalid index referenced';

// applyOperation returns undefined on success and evanphx's error text on failure.
function applyOperation(root: Container, op: JsonObject | null, copies: { size: number; limit: number }): string | undefined {
  const kind = op !== null && typeof op.op === 'string' ? op.op : 'unknown';
  if (op === null) return `Unexpected kind: ${kind}`;
  switch (kind) {
    case 'add':
      return add(root, op);
    case 'remove':
      return remove(root, op);
    case 'replace':
      return replace(root, op);
    case 'move':
      return move(root, op);
    case 'test':
      return test(root, op);
    case 'copy':
      return copy(root, op, copies);
    default:
      return `Unexpected kind: ${kind}`;
  }
}

// pointerField reads "path" or "from": a string, or the error evanphx reports for it.
function pointerField(op: JsonObject, field: 'path' | 'from'): { pointer: string } | { error: string } {
  const value = getOwn(op, field);
  if (value === undefined || value === null) {
    return { error: field === 'path' ? `operation missing path field: ${missing}` : `operation, missing from field: ${missing}` };
  }
  if (typeof value !== 'string') return { error: `json: cannot unmarshal ${jsonKind(value)} into Go value of type string` };
  return { pointer: value };
}

function operationValue(op: JsonObject): unknown {
  return cloneJson(getOwn(op, 'value'));
}

function add(root: Container, op: JsonObject): string | undefined {
  const path = pointerField(op, 'path');
  if ('error' in path) return `add operation failed to decode path: ${missing}`;
  const target = findObject(root, path.pointer);
  if (!target) return `add operation does not apply: doc is missing path: "${path.pointer}": ${missing}`;
  const err = addAt(target, operationValue(op));
  return err && `error in add for path: '${path.pointer}': ${err}`;
}

function remove(root: Container, op: JsonObject): string | undefined {
  const path = pointerField(op, 'path');
  if ('error' in path) return `remove operation failed to decode path: ${missing}`;
  const target = findObject(root, path.pointer);
  if (!target) return `remove operation does not apply: doc is missing path: "${path.pointer}": ${missing}`;
  const err = removeAt(target);
  return err && `error in remove for path: '${path.pointer}': ${err}`;
}

function replace(root: Container, op: JsonObject): string | undefined {
  const path = pointerField(op, 'path');
  if ('error' in path) return `replace operation failed to decode path: ${path.error}`;
  const target = findObject(root, path.pointer);
  if (!target) return `replace operation does not apply: doc is missing path: ${path.pointer}: ${missing}`;
  if ('error' in getAt(target)) return `replace operation does not apply: doc is missing key: ${path.pointer}: ${missing}`;
  setAt(target, operationValue(op));
  return undefined;
}

function move(root: Container, op: JsonObject): string | undefined {
  const from = pointerField(op, 'from');
  if ('error' in from) return `move operation failed to decode from: ${from.error}`;
  const source = findObject(root, from.pointer);
  if (!source) return `move operation does not apply: doc is missing from path: ${from.pointer}: ${missing}`;
  const got = getAt(source);
  if ('error' in got) return `error in move for path: '${source.key}': ${got.error}`;
  const removeErr = removeAt(source);
  if (removeErr) return `error in move for path: '${source.key}': ${removeErr}`;
  const path = pointerField(op, 'path');
  if ('error' in path) return `move operation failed to decode path: ${path.error}`;
  const target = findObject(root, path.pointer);
  if (!target) return `move operation does not apply: doc is missing destination path: ${path.pointer}: ${missing}`;
  const err = addAt(target, got.value);
  return err && `error in move for path: '${path.pointer}': ${err}`;
}

function test(root: Container, op: JsonObject): string | undefined {
  const path = pointerField(op, 'path');
  if ('error' in path) return `test operation failed to decode path: ${path.error}`;
  const target = findObject(root, path.pointer);
  if (!target) return `test operation does not apply: is missing path: ${path.pointer}: ${missing}`;
  const got = getAt(target);
  if ('error' in got) return `error in test for path: '${path.pointer}': ${got.error}`;
  const failed = `testing value ${path.pointer} failed: test failed`;
  const hasValue = hasOwn(op, 'value');
  if (got.value === null) return hasValue && op.value === null ? undefined : failed;
  if (!hasValue) return failed;
  return jsonEqual(got.value, op.value) ? undefined : failed;
}

function copy(root: Container, op: JsonObject, copies: { size: number; limit: number }): string | undefined {
  const from = pointerField(op, 'from');
  if ('error' in from) return `copy operation failed to decode from: ${from.error}`;
  const source = findObject(root, from.pointer);
  if (!source) return `copy operation does not apply: doc is missing from path: ${from.pointer}: ${missing}`;
  const got = getAt(source);
  if ('error' in got) return `error in copy for from: '${from.pointer}': ${got.error}`;
  const path = pointerField(op, 'path');
  if ('error' in path) return `copy operation failed to decode path: ${missing}`;
  const target = findObject(root, path.pointer);
  if (!target) return `copy operation does not apply: doc is missing destination path: ${path.pointer}: ${missing}`;
  // A missing source is a nil node in evanphx: it copies as null and adds nothing to the size.
  if (got.value !== null) copies.size += jsonSize(got.value);
  if (copies.limit > 0 && copies.size > copies.limit) {
    return `Unable to complete the copy, the accumulated size increase of copy is ${copies.size}, exceeding the limit ${copies.limit}`;
  }
  const err = addAt(target, cloneJson(got.value));
  return err && `error while adding value during copy: ${err}`;
}

// decodePatchKey undoes the RFC 6901 escapes in one pass, so "~01" is "~1".
function decodePatchKey(segment: string): string {
  return segment.replace(/~[01]/g, (escape) => (escape === '~1' ? '/' : '~'));
}

// findObject is evanphx's findObject: the container that holds the last segment of the pointer,
// and that segment, or undefined when the path to it is missing.
function findObject(root: Container, pointer: string): Target | undefined {
  const segments = pointer.split('/');
  if (segments.length < 2) return undefined;
  let container: Container = root;
  for (const segment of segments.slice(1, -1)) {
    const next = getAt({ container, key: decodePatchKey(segment) });
    if ('error' in next) return undefined;
    if (!isObject(next.value) && !Array.isArray(next.value)) return undefined;
    container = next.value;
  }
  return { container, key: decodePatchKey(segments[segments.length - 1]) };
}

// atoi is Go's strconv.Atoi: an optional sign and decimal digits, within int64.
function atoi(key: string): number | string {
  if (!/^[+-]?\d+$/.test(key)) return `strconv.Atoi: parsing "${key}": invalid syntax`;
  const n = Number(key);
  if (!Number.isSafeInteger(n)) return `strconv.Atoi: parsing "${key}": value out of range`;
  return n;
}

// resolveIndex turns an index of a list of length n into 0..n-1; negative indexes count back
// from the end.
function resolveIndex(key: string, length: number): number | string {
  const idx = atoi(key);
  if (typeof idx === 'string') return idx;
  if (idx >= length || idx < -length) return `Unable to access invalid index: ${idx}: ${invalidIndex}`;
  return idx < 0 ? idx + length : idx;
}

// getAt reads the member or element; a missing member reads as null (a nil node), as in evanphx.
function getAt({ container, key }: Target): Outcome {
  if (!Array.isArray(container)) return { value: getOwn(container, key) ?? null };
  const idx = resolveIndex(key, container.length);
  if (typeof idx === 'string') return { error: idx };
  return { value: container[idx] };
}

// setAt is the second half of replace, after getAt found the target.
function setAt({ container, key }: Target, value: unknown): void {
  if (!Array.isArray(container)) {
    setOwn(container, key, value);
    return;
  }
  container[resolveIndex(key, container.length) as number] = value;
}

function addAt({ container, key }: Target, value: unknown): string | undefined {
  if (!Array.isArray(container)) {
    setOwn(container, key, value);
    return undefined;
  }
  if (key === '-') {
    container.push(value);
    return undefined;
  }
  const idx = atoi(key);
  if (typeof idx === 'string') return `value was not a proper array index: '${key}': ${idx}`;
  const size = container.length + 1;
  if (idx >= size || idx < -size) return `Unable to access invalid index: ${idx}: ${invalidIndex}`;
  container.splice(idx < 0 ? idx + size : idx, 0, value);
  return undefined;
}

function removeAt({ container, key }: Target): string | undefined {
  if (!Array.isArray(container)) {
    if (!hasOwn(container, key)) return `Unable to remove nonexistent key: ${key}: ${missing}`;
    delete container[key];
    return undefined;
  }
  const idx = resolveIndex(key, container.length);
  if (typeof idx === 'string') return idx;
  container.splice(idx, 1);
  return undefined;
}
