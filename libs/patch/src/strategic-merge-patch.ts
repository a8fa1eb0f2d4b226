// Strategic merge patch (application/strategic-merge-patch+json) as the apiserver of Kubernetes
// v1.28 applies it: strategicpatch.StrategicMergeMapPatch with MergeParallelList and
// IgnoreUnmatchedNulls (k8s.io/apimachinery/pkg/util/strategicpatch/patch.go), the merge rules
// read from a Schema instead of Go struct tags.
//
//   - maps merge; a null member deletes; a list whose field has patchStrategy merge merges by
//     patchMergeKey (a list of scalars merges as a set), any other list is replaced;
//   - patchStrategy replace on an object field replaces the object;
//   - directives: `$patch: replace | delete` in a map, `$patch: replace | delete` in a list item,
//     `$retainKeys: [fields]`, `$setElementOrder/<list>: [...]`, `$deleteFromPrimitiveList/<list>`;
//   - a value the original does not have (or has with another JSON type) is taken from the patch
//     without its null members and without maps that carry a `$patch`;
//   - where the schema says nothing (a field it does not list, preserveUnknownFields) maps still
//     merge, lists are replaced and directives still apply: JSON merge patch plus directives, as
//     strategicpatch does with an OpenAPI schema that has no entry. Kubernetes itself looks fields
//     up in the Go type and fails with `unable to find api field in struct <T> for the json field
//     "<f>"` (500), which a stored object cannot reach except inside a RawExtension;
//   - other `$`-keys are ordinary fields, left for field validation to report.
// Merged lists are ordered as Kubernetes orders them: $setElementOrder first, then the patch,
// then the live list; items neither knows come first (strategic-merge-patch-order.ts).
//
// Errors. handlers/patch.go interpretStrategicMergePatchError turns the mergepatch sentinel
// errors into 400 or 422; every other error stays a plain Go error, which the apiserver answers
// with 500 and reason Unknown (no "reason" in the JSON).
//
//   case                                            status  reason      message
//   patch body an array or a scalar                 400     BadRequest  json: cannot unmarshal <kind> into Go value of type map[string]interface {}
//   $retainKeys not a list, or a patched field      400     BadRequest  invalid patch format of retainKeys
//     missing from it
//   $deleteFromPrimitiveList key without /<field>   400     BadRequest  invalid patch format of primitive list
//   $setElementOrder key without /<field>           400     BadRequest  invalid patch format of setElementOrder list
//   a list of lists                                 422     Invalid     the server rejected our request due to an error in our request
//   $patch not replace or delete (map), or not      500     -           unknown patch type: <value> in map: map[<k>:<v> ...]
//     replace, delete or merge (list item)
//   $patch: merge in a list item                    500     -           merging lists cannot yet be specified in the patch
//   a merging list item without its merge key       500     -           map: map[...] does not contain declared merge key: <key>
//   list elements of different JSON types           500     -           list element types are not identical: [[...] [...]]
//   $setElementOrder (or its list) not a list       500     -           expected a []interface {}, but received a <Go type>
//   patch list not in $setElementOrder's order      500     -           The order in patch list:\n[...]\n doesn't match $setElementOrder list:\n[...]\n
//   $setElementOrder over lists with no elements    500     -           no elements in any of the given slices
//   $setElementOrder on a field that is no list     500     -           expected slice or array type, but got: struct
//   merge strategy on objects with no merge key     500     -           cannot merge lists without merge key for struct
//   patchStrategy of two strategies, no retainKeys  500     -           unexpected patch strategy: [<a> <b>]
import { Schema } from '@plinth/api';
import { badRequest, internalFailure, PatchError } from './errors';
import { goSprint } from './go-format';
import { cloneJson, deleteOwn, hasOwn, isObject, jsonKind, JsonObject, setOwn } from './json';
import {
  deleteDirective,
  directiveMarker,
  errBadArgType,
  errNoMergeKey,
  extractToDeleteItems,
  findByMergeKey,
  normalizeElementOrder,
  partitionByPresence,
  scalarEqual,
  sliceElementType,
  sliceType,
} from './strategic-merge-patch-order';

const replaceDirective = 'replace';
const mergeDirective = 'merge';
const retainKeysStrategy = 'retainKeys';
const retainKeysDirective = '$retainKeys';
const deleteFromPrimitiveListDirectivePrefix = '$deleteFromPrimitiveList';
const setElementOrderDirectivePrefix = '$setElementOrder';

// The mergepatch sentinel errors the handler answers with 400.
const errBadPatchFormatForPrimitiveList = 'invalid patch format of primitive list';
const errBadPatchFormatForRetainKeys = 'invalid patch format of retainKeys';
const errBadPatchFormatForSetElementOrderList = 'invalid patch format of setElementOrder list';

// applyStrategicMergePatch merges the patch into a copy of original, reading merge rules from
// schema (the kind's schema; undefined means no rules). Neither argument is changed.
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: Schema | undefined): JsonObject {
  if (patch !== null && !isObject(patch)) {
    throw badRequest(`json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`);
  }
  const doc = isObject(original) ? (cloneJson(original) as JsonObject) : {};
  if (patch === null) return doc;
  return mergeMap(doc, cloneJson(patch) as JsonObject, schema);
}

// PatchMeta is what strategicpatch reads from a field's struct tags.
interface PatchMeta {
  strategy: string;
  mergeKey: string;
}

const noMeta: PatchMeta = { strategy: '', mergeKey: '' };

// fieldSchema is the schema of a member: a listed property, else the map value schema.
function fieldSchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (!schema) return undefined;
  if (schema.properties && hasOwn(schema.properties, key)) return schema.properties[key];
  return schema.additionalProperties;
}

// patchMeta is LookupPatchMetadataForStruct plus extractRetainKeysPatchStrategy: the strategy
// other than retainKeys, and the merge key.
function patchMeta(field: Schema | undefined): PatchMeta {
  if (!field?.patchStrategy) return field?.patchMergeKey ? { strategy: '', mergeKey: field.patchMergeKey } : noMeta;
  const strategies = field.patchStrategy.split(',');
  let strategy: string;
  if (strategies.length === 1) strategy = strategies[0] === retainKeysStrategy ? '' : strategies[0];
  else if (strategies.length === 2 && strategies[0] === retainKeysStrategy) strategy = strategies[1];
  else if (strategies.length === 2 && strategies[1] === retainKeysStrategy) strategy = strategies[0];
  else throw internalFailure(`unexpected patch strategy: [${strategies.join(' ')}]`);
  return { strategy, mergeKey: field.patchMergeKey ?? '' };
}

// lookupSlice is LookupPatchMetadataForSlice: the element schema and the list's merge rules.
function lookupSlice(schema: Schema | undefined, key: string): { items: Schema | undefined; meta: PatchMeta } {
  const field = fieldSchema(schema, key);
  if (field?.type !== undefined && field.type !== 'array') {
    const parent = schema?.properties ? 'struct' : 'map';
    throw internalFailure(`expected slice or array type, but got: ${parent}`);
  }
  return { items: field?.items, meta: patchMeta(field) };
}

// extractKey trims a parallel-list directive prefix: "$setElementOrder/containers" is
// "containers".
function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw badRequest(prefix === setElementOrderDirectivePrefix ? errBadPatchFormatForSetElementOrderList : errBadPatchFormatForPrimitiveList);
  }
  return key.slice(slash + 1);
}

// mergeMap merges patch into original in place (both are private copies) and returns the result.
function mergeMap(original: JsonObject, patch: JsonObject, schema: Schema | undefined): JsonObject {
  if (hasOwn(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker], patch);
  applyRetainKeysDirective(original, patch);
  mergePatchIntoOriginal(original, patch, schema);

  for (const patchKey of Object.keys(patch)) {
    const patchV = patch[patchKey];
    let key = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListDirectivePrefix)) {
      isDeleteList = true;
      key = extractKey(patchKey, deleteFromPrimitiveListDirectivePrefix) || patchKey;
    }
    // A null deletes, whether or not the original has the field (IgnoreUnmatchedNulls).
    if (patchV === null) {
      deleteOwn(original, key);
      continue;
    }
    if (!hasOwn(original, key) || !sameKind(original[key], patchV)) {
      if (!isDeleteList) takePatchValue(original, key, patchV);
      continue;
    }
    const originalV = original[key];
    if (isObject(originalV) && isObject(patchV)) {
      const field = fieldSchema(schema, key);
      const { strategy } = patchMeta(field);
      setOwn(original, key, strategy === replaceDirective ? patchV : mergeMap(originalV, patchV, field));
    } else if (Array.isArray(originalV) && Array.isArray(patchV)) {
      const { items, meta } = lookupSlice(schema, key);
      setOwn(original, key, mergeSliceHandler(originalV, patchV, items, meta, isDeleteList));
    } else {
      takePatchValue(original, key, patchV);
    }
  }
  return original;
}

// sameKind is reflect.TypeOf equality where it matters: maps with maps, lists with lists.
function sameKind(a: unknown, b: unknown): boolean {
  if (isObject(a) || isObject(b)) return isObject(a) && isObject(b);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b);
  return true;
}

// takePatchValue stores a patch value the original does not merge with: without null members
// (discardNullValuesFromPatch) and without maps that carry a $patch (removeDirectives); a value
// that is itself such a map removes the field.
function takePatchValue(original: JsonObject, key: string, value: unknown): void {
  discardNullValues(value);
  const { value: cleaned, keep } = removeDirectives(value);
  if (keep) setOwn(original, key, cleaned);
  else deleteOwn(original, key);
}

function discardNullValues(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) discardNullValues(item);
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else discardNullValues(value[key]);
    }
  }
}

function removeDirectives(value: unknown): { value: unknown; keep: boolean } {
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value) {
      const r = removeDirectives(item);
      if (r.keep) kept.push(r.value);
    }
    return { value: kept, keep: true };
  }
  if (isObject(value)) {
    if (hasOwn(value, directiveMarker)) return { value: null, keep: false };
    for (const key of Object.keys(value)) {
      const r = removeDirectives(value[key]);
      if (r.keep) value[key] = r.value;
      else delete value[key];
    }
  }
  return { value, keep: true };
}

// handleDirectiveInMergeMap: `$patch: replace` takes the patch map as it is, `$patch: delete`
// empties the map.
function handleDirectiveInMergeMap(directive: unknown, patch: JsonObject): JsonObject {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return patch;
  }
  if (directive === deleteDirective) return {};
  throw errBadPatchType(directive, patch);
}

// errBadPatchType is mergepatch.ErrBadPatchType, a plain error (500).
function errBadPatchType(directive: unknown, m: JsonObject): PatchError {
  return internalFailure(`unknown patch type: ${goSprint(directive, 's')} in map: ${goSprint(m)}`);
}

// applyRetainKeysDirective clears the original fields missing from $retainKeys, after checking
// that every field the patch sets is listed.
function applyRetainKeysDirective(original: JsonObject, patch: JsonObject): void {
  if (!hasOwn(patch, retainKeysDirective)) return;
  const retainKeys = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(retainKeys)) throw badRequest(errBadPatchFormatForRetainKeys);
  const retained = (key: string) => retainKeys.some((k) => k === key);
  for (const key of Object.keys(patch)) {
    if (patch[key] === null || key.startsWith(deleteFromPrimitiveListDirectivePrefix) || key.startsWith(setElementOrderDirectivePrefix)) continue;
    if (!retained(key)) throw badRequest(errBadPatchFormatForRetainKeys);
  }
  for (const key of Object.keys(original)) {
    if (!retained(key)) delete original[key];
  }
}

// mergePatchIntoOriginal handles each $setElementOrder/<list> together with the patch's <list>:
// merges them into the original list and orders the result by the directive, the patch and the
// live list, in that precedence. Both keys leave the patch.
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, schema: Schema | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderDirectivePrefix)) continue;
    const setOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setOrder)) throw errBadArgType(sliceType, setOrder);
    const listKey = extractKey(key, setElementOrderDirectivePrefix);

    const foundOriginal = hasOwn(original, listKey);
    const foundPatch = hasOwn(patch, listKey);
    const originalList = foundOriginal ? original[listKey] : undefined;
    const patchList = foundPatch ? patch[listKey] : undefined;
    if (foundOriginal && !Array.isArray(originalList)) throw errBadArgType(sliceType, originalList);
    if (foundPatch && !Array.isArray(patchList)) throw errBadArgType(sliceType, patchList);
    const originalValue = (originalList as unknown[] | undefined) ?? null;
    const patchValue = (patchList as unknown[] | undefined) ?? null;

    const { items, meta } = lookupSlice(schema, listKey);
    validatePatchWithSetOrderList(patchValue ?? [], setOrder, meta.mergeKey);

    let merged: unknown[];
    if (originalValue && patchValue) merged = mergeSliceHandler(originalValue, patchValue, items, meta, false);
    else if (originalValue) merged = originalValue;
    else if (patchValue) merged = removeDirectives(patchValue).value as unknown[];
    else continue;

    const { patch: patchItems, serverOnly } = partitionByPresence(merged, setOrder, meta.mergeKey);
    const kind = sliceElementType(originalValue ?? [], patchValue ?? []);
    setOwn(original, listKey, normalizeElementOrder(patchItems, serverOnly, setOrder, originalValue, meta.mergeKey, kind));
    delete patch[listKey];
  }
}

// validatePatchWithSetOrderList checks that the patch list (less its deletions) follows the
// order of $setElementOrder.
function validatePatchWithSetOrderList(patchList: unknown[], setOrder: unknown[], mergeKey: string): void {
  if (setOrder.length === 0 || patchList.length === 0) return;
  const items = mergeKey ? extractToDeleteItems(patchList).keep : patchList;
  let p = 0;
  let s = 0;
  while (p < items.length && s < setOrder.length) {
    if (isObject(items[p]) && hasOwn(items[p] as JsonObject, directiveMarker)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(items[p], setOrder[s], mergeKey)) p++;
    s++;
  }
  if (p < items.length && s >= setOrder.length) {
    throw internalFailure(`The order in patch list:\n${goSprint(patchList)}\n doesn't match ${setElementOrderDirectivePrefix} list:\n${goSprint(setOrder)}\n`);
  }
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (!mergeKey) return scalarEqual(left, right);
  if (!isObject(left)) throw errBadArgType('map[string]interface {}', left);
  if (!isObject(right)) throw errBadArgType('map[string]interface {}', right);
  if (!hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return scalarEqual(left[mergeKey], right[mergeKey]);
}

// mergeSliceHandler merges lists with the merge strategy (and deletion lists, whatever the
// strategy); any other list is replaced by the patch list as it is.
function mergeSliceHandler(original: unknown[], patch: unknown[], items: Schema | undefined, meta: PatchMeta, isDeleteList: boolean): unknown[] {
  if (meta.strategy !== mergeDirective && !isDeleteList) return patch;
  return mergeSlice(original, patch, items, meta.mergeKey, isDeleteList);
}

function mergeSlice(original: unknown[], patch: unknown[], items: Schema | undefined, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);

  let merged: unknown[];
  let serverOrder: unknown[] = original;
  let patchOrder: unknown[] | null = patch;
  if (kind !== 'map') {
    if (isDeleteList) return original.filter((v) => !patch.some((d) => scalarEqual(d, v)));
    merged = [];
    for (const v of [...original, ...patch]) if (!merged.some((m) => scalarEqual(m, v))) merged.push(v);
  } else {
    if (!mergeKey) throw internalFailure('cannot merge lists without merge key for struct');
    ({ original: serverOrder, patch: patchOrder } = mergeSliceWithSpecialElements(original, patch, mergeKey));
    merged = mergeSliceWithoutSpecialElements(serverOrder, patchOrder ?? [], mergeKey, items);
  }
  const { patch: patchItems, serverOnly } = partitionByPresence(merged, patchOrder, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, patchOrder, serverOrder, mergeKey, kind);
}

// mergeSliceWithSpecialElements applies the list items that carry a $patch: `delete` removes
// every original item with that merge key value, `replace` makes the other patch items the whole
// list (returned as the original, with no patch left).
function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): { original: unknown[]; patch: unknown[] | null } {
  const plain: unknown[] = [];
  let replace = false;
  let kept = original;
  for (const v of patch) {
    const item = v as JsonObject;
    if (!hasOwn(item, directiveMarker)) {
      plain.push(v);
      continue;
    }
    const directive = item[directiveMarker];
    if (directive === deleteDirective) {
      if (!hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
      kept = kept.filter((o) => !(isObject(o) && hasOwn(o, mergeKey) && scalarEqual(o[mergeKey], item[mergeKey])));
    } else if (directive === replaceDirective) {
      replace = true;
    } else if (directive === mergeDirective) {
      throw internalFailure('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, item);
    }
  }
  return replace ? { original: plain, patch: null } : { original: kept, patch: plain };
}

// mergeSliceWithoutSpecialElements merges each patch item into the original item with the same
// merge key value, or appends it as it is.
function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, items: Schema | undefined): unknown[] {
  const merged = [...original];
  for (const v of patch) {
    const item = v as JsonObject;
    if (!hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    const at = findByMergeKey(merged, mergeKey, item[mergeKey]);
    if (at >= 0) merged[at] = mergeMap(merged[at] as JsonObject, item, items);
    else merged.push(v);
  }
  return merged;
}
