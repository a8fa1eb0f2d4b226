// decodeObject reads a create or update body into an object of the addressed kind: JSON or
// YAML, through field validation (unknown and duplicate fields: Ignore, Warn or Strict), with
// apiVersion and kind defaulted to the endpoint's and checked against it.
import { KubeObject, Schema } from '@plinth/api';
import { badRequest, field, invalid, StatusError } from '@plinth/machinery';
import { applyFieldValidation, BodyDecodeError, decodeErrorStatus, FieldValidation, FieldValidationResult, OptionsKind, parseFieldValidation, StrictDecodingError, TypeDecodeError, unknownFields, unrecognizedBody } from './field-validation';
import { bodyFormat, bodyToJson, mediaTypeOf, readBody } from './http/body';
import { goYamlStrictError } from './http/go-yaml';
import { clientApiVersion, RequestScope } from './scope';

export async function decodeBody(scope: RequestScope, optionsKind: OptionsKind): Promise<KubeObject> {
  const mode = parseFieldValidation(scope.query.get('fieldValidation'), optionsKind);
  bodyFormat(scope.req);
  const raw = await readBody(scope.req);
  const text = bodyToJson(scope.req, raw, (message) => unrecognizedBody(scope.def.kind, message, raw));
  // the strict YAML serializer also reads the YAML strictly, for the keys JSON no longer repeats
  const yamlStrictError = mode !== FieldValidation.Ignore && mediaTypeOf(scope.req) === 'application/yaml' ? goYamlStrictError(raw.toString('utf8')) : null;
  return decodeText(scope, text, mode, yamlStrictError ? [yamlStrictError] : [], raw);
}

// decodeText decodes the JSON text of a body; original is the body as sent (YAML, protobuf), which
// an unreadable body's message summarizes.
// onStrict and onType, when given, answer a strict or a type error in place of the handlers'
// transformDecodeError.
export function decodeText(
  scope: RequestScope,
  text: string,
  mode: FieldValidation,
  extraStrictErrors: readonly string[] = [],
  original: string | Buffer = text,
  onStrict?: StrictErrorStatus,
  onType?: TypeErrorStatus,
): KubeObject {
  const { group, version, kind, schema, unstructured } = scope.def;
  const result = decodeWithStatus(text, { group, version, kind, schema }, mode, unstructured ? undefined : kind, extraStrictErrors, original, onStrict, onType);
  scope.response.warnings.push(...result.warnings);
  const object = result.object as KubeObject;
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    throw badRequest('the body of the request must be an object');
  }
  checkTypeMeta(scope, object);
  object.metadata = object.metadata ?? {};
  object.apiVersion = scope.store.apiVersion;
  object.kind = scope.def.kind;
  return object;
}

// checkTypeMeta accepts the endpoint's apiVersion (in either group spelling) and kind, or
// none, as kube-apiserver defaults a missing apiVersion and kind from the endpoint. Another
// apiVersion or kind is one the built-in scheme has no such type for, and kube-apiserver's
// message says so (a custom resource's decoder names the mismatch instead).
function checkTypeMeta(scope: RequestScope, object: KubeObject): void {
  const apiVersion = typeof object.apiVersion === 'string' && object.apiVersion !== '' ? object.apiVersion : clientApiVersion(scope);
  const kind = typeof object.kind === 'string' && object.kind !== '' ? object.kind : scope.def.kind;
  const apiVersionMatches = apiVersion === scope.store.apiVersion || apiVersion === clientApiVersion(scope);
  if (apiVersionMatches && kind === scope.def.kind) return;
  if (!scope.def.unstructured) throw badRequest(unregisteredKindMessage(apiVersion, kind, scope.def.kind));
  if (!apiVersionMatches) {
    throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${clientApiVersion(scope)})`);
  }
  throw badRequest(`the kind in the data (${kind}) does not match the expected kind (${scope.def.kind})`);
}

// unregisteredKindMessage is kube-apiserver's answer to a body whose apiVersion and kind name no
// type of its scheme: "<kind> in version "<v>" cannot be handled as a <Kind>: no kind ...".
export function unregisteredKindMessage(apiVersion: string, kind: string, expectedKind: string): string {
  const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
  return `${kind} in version "${version}" cannot be handled as a ${expectedKind}: no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/api/legacyscheme/scheme.go:30"`;
}

// KindTarget is a kind a body decodes into that is not the addressed resource's (the Binding,
// TokenRequest or Scale of a subresource).
export interface KindTarget {
  group: string;
  version: string;
  kind: string;
  schema: Schema;
}

// decodeKindText reads a JSON body into target's Go struct with decodeText's errors: values of
// the wrong type, numbers and times Go refuses are 400s; unknown fields are dropped.
export function decodeKindText(text: string, target: KindTarget, mode: FieldValidation = FieldValidation.Ignore): Record<string, unknown> {
  return decodeWithStatus(text, target, mode, target.kind, [], text).object;
}

// StrictErrorStatus answers the strict errors of a body decoded under fieldValidation=Strict
// otherwise than a create or update does (a patch's are on the patched object).
export type StrictErrorStatus = (err: StrictDecodingError) => StatusError;
// TypeErrorStatus answers a body's value of the wrong type otherwise than with a 400.
export type TypeErrorStatus = (err: TypeDecodeError) => StatusError;

// decodePatchedText decodes the object a JSON or merge patch made: under Strict its strict errors
// are the patch handler's 422 on the field "patch", whose value is the patched JSON as Go wrote
// it (typed fields first, in the Go structs' order, at the client's apiVersion).
// A merge patch's result is written as json-patch's MergePatch writes it: each object the patch
// reaches with its keys sorted (a Go map), the others as they were.
// patchStrictErrors are the patch's own (its repeated keys, a JSON patch's undeclared members):
// they come first, and under Strict refuse the patched object even when it decodes cleanly.
// The patched object's unknown fields are named in the order its decoder meets them there.
// A built-in kind's value of the wrong type is the same 422, its detail the decoder's message
// (jsonPatcher's applyPatchToCurrentObject), whatever fieldValidation says.
export function decodePatchedText(scope: RequestScope, text: string, mode: FieldValidation, mergePatch?: unknown, patchStrictErrors: readonly string[] = []): KubeObject {
  const patchedJson = (): Record<string, unknown> => {
    const ordered = inGoOrder(JSON.parse(text) as Record<string, unknown>, clientApiVersion(scope), scope.def.unstructured ? undefined : scope.def.schema);
    return (mergePatch === undefined ? ordered : sortedWherePatched(ordered, mergePatch)) as Record<string, unknown>;
  };
  // A custom resource's metadata errors are left to decodeText's 400 (checked with built-in kinds only).
  const refuseTyped = scope.def.unstructured ? undefined : (err: TypeDecodeError) => invalid({ group: '', kind: '' }, '', [field.invalid(field.newPath('patch'), JSON.stringify(patchedJson()), err.message)]);
  return decodePatched(
    scope,
    text,
    mode,
    patchStrictErrors,
    (errors) => {
      const patched = patchedJson();
      return refusePatch(JSON.stringify(patched), [...patchStrictErrors, ...inDocumentOrder(errors, unknownFields(patched, scope.def.schema))]);
    },
    refuseTyped,
  );
}

// decodeStrategicPatchedText decodes the object a strategic merge patch made: its strict errors
// (the patch's repeated keys, then the patched object's unknown fields) are the 422 on the field
// "patch" whose value is the patch as Go's %+v prints it.
export function decodeStrategicPatchedText(scope: RequestScope, text: string, mode: FieldValidation, patchValue: string, patchStrictErrors: readonly string[] = []): KubeObject {
  return decodePatched(scope, text, mode, patchStrictErrors, (errors) => refusePatch(patchValue, [...patchStrictErrors, ...errors]));
}

function decodePatched(scope: RequestScope, text: string, mode: FieldValidation, patchStrictErrors: readonly string[], refuse: (errors: readonly string[]) => StatusError, onType?: TypeErrorStatus): KubeObject {
  const object = decodeText(scope, text, mode, [], text, (err) => refuse(err.errors), onType);
  if (mode === FieldValidation.Strict && patchStrictErrors.length > 0) throw refuse([]);
  return object;
}

function refusePatch(value: string, errors: readonly string[]): StatusError {
  return invalid({ group: '', kind: '' }, '', [field.invalid(field.newPath('patch'), value, `strict decoding error: ${errors.join(', ')}`)]);
}

// inDocumentOrder orders `unknown field "path"` errors as the paths come in order.
function inDocumentOrder(errors: readonly string[], order: readonly string[]): string[] {
  const rank = (error: string): number => {
    const match = /^unknown field "(.*)"$/.exec(error);
    const at = match ? order.indexOf(match[1]) : -1;
    return at < 0 ? order.length : at;
  };
  return [...errors].sort((a, b) => rank(a) - rank(b));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sortedWherePatched(value: unknown, patch: unknown): unknown {
  if (!isPlainObject(value) || !isPlainObject(patch)) return value;
  const keys = Object.keys(value).sort();
  return Object.fromEntries(keys.map((key) => [key, key in patch ? sortedWherePatched(value[key], patch[key]) : value[key]]));
}

const objectMetaOrder = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

// inGoOrder orders an object's keys as encoding/json writes its Go type: TypeMeta, ObjectMeta (in
// its field order), then the rest in the order of the kind's schema (goOrdered); a custom
// resource's (no Go type) as they were.
function inGoOrder(object: Record<string, unknown>, apiVersion: string, schema?: Schema): Record<string, unknown> {
  const { apiVersion: _apiVersion, kind, metadata, ...rest } = object;
  const ordered: Record<string, unknown> = { apiVersion, kind };
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) {
    const meta = metadata as Record<string, unknown>;
    const known = objectMetaOrder.filter((key) => key in meta);
    ordered.metadata = Object.fromEntries([...known, ...Object.keys(meta).filter((key) => !objectMetaOrder.includes(key))].map((key) => [key, meta[key]]));
  } else if (metadata !== undefined) {
    ordered.metadata = metadata;
  }
  return { ...ordered, ...(schema ? (goOrdered(rest, schema) as Record<string, unknown>) : rest) };
}

// goOrdered orders a value as encoding/json writes it from its Go type: a struct's fields in
// the schema's property order (the Go struct's), any others after them as they were; a map's
// keys sorted; each list element in its own order.
function goOrdered(value: unknown, schema: Schema | undefined): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value)) return schema.items ? value.map((item) => goOrdered(item, schema.items)) : value;
  if (!isPlainObject(value)) return value;
  const properties = schema.properties;
  if (properties) {
    const keys = [...Object.keys(properties).filter((key) => key in value), ...Object.keys(value).filter((key) => !(key in properties))];
    return Object.fromEntries(keys.map((key) => [key, goOrdered(value[key], properties[key] ?? schema.additionalProperties)]));
  }
  if (schema.additionalProperties) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, goOrdered(value[key], schema.additionalProperties)]));
  return value;
}

// decodeWithStatus is applyFieldValidation whose decode errors are the handlers' 400 Status.
function decodeWithStatus(
  text: string,
  target: KindTarget,
  mode: FieldValidation,
  goKind: string | undefined,
  extraStrictErrors: readonly string[],
  original: string | Buffer,
  onStrict?: StrictErrorStatus,
  onType?: TypeErrorStatus,
): FieldValidationResult {
  try {
    return applyFieldValidation(text, target.schema, mode, goKind, extraStrictErrors);
  } catch (err) {
    if (onStrict && err instanceof StrictDecodingError) throw onStrict(err);
    if (onType && err instanceof TypeDecodeError) throw onType(err);
    if (err instanceof StrictDecodingError || err instanceof TypeDecodeError || err instanceof BodyDecodeError) throw decodeErrorStatus(err, target, original);
    throw err;
  }
}
