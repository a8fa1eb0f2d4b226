// The field-validation stage of create, update and patch bodies (the fieldValidation query
// parameter, GA in 1.27), as kube-apiserver 1.28 runs it for built-in types in
// k8s.io/apiserver/pkg/endpoints/handlers (create.go, update.go, patch.go):
// - Ignore: decode non-strictly; unknown fields are dropped, duplicated keys keep their last value.
// - Warn (the default when the parameter is absent or empty): decode strictly, and answer one
//   Warning header item per strict error (`unknown field "spec.foo"`, `duplicate field "spec.bar"`).
// - Strict: refuse the request with the strict errors (400 BadRequest, see decodeErrorStatus).
// Strict errors come in document order, duplicates and unknown fields interleaved, each message
// once, at most 100 (sigs.k8s.io/json saveStrictError); a key that is both unknown and duplicated
// is reported as unknown only, and nothing below an unknown field is reported.
import { objectMetaSchema, Schema } from '@plinth/api';
import { badRequest, field, invalid, StatusError } from '@plinth/machinery';
import { goQuote } from '@plinth/machinery';
import { hasInexactNumber, JsonSyntaxError, keyOffsets, parseStrictJson, StrictParseResult } from './strict-json';
import { decodeGoTypes, jsonKind } from './go-types';
import { prune } from './unknown-fields';

export const FieldValidation = {
  Ignore: 'Ignore',
  Warn: 'Warn',
  Strict: 'Strict',
} as const;
export type FieldValidation = (typeof FieldValidation)[keyof typeof FieldValidation];

// OptionsKind names the options object a verb's query parameters decode into; an invalid
// fieldValidation is reported against it (`CreateOptions.meta.platform.io "" is invalid: ...`).
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

// allowedFieldValidationValues is sets.NewString("", Ignore, Warn, Strict).List(): sorted.
const allowedFieldValidationValues = ['', 'Ignore', 'Strict', 'Warn'];

// parseFieldValidation validates the fieldValidation query value as ValidateFieldValidation does
// (422 Invalid on the options kind) and applies the handlers' default, Warn.
export function parseFieldValidation(value: string | null | undefined, optionsKind: OptionsKind = 'CreateOptions'): FieldValidation {
  const directive = value ?? '';
  if (!allowedFieldValidationValues.includes(directive)) {
    const err = field.notSupported('fieldValidation', directive, allowedFieldValidationValues);
    throw invalid({ group: 'meta.platform.io', kind: optionsKind }, '', [err]);
  }
  return directive === '' ? FieldValidation.Warn : (directive as FieldValidation);
}

// DataKind is the apiVersion and kind a body names, as the decoder read them.
export interface DataKind {
  apiVersion: string;
  kind: string;
}

const maxStrictErrors = 100;

// StrictDecodingError is runtime.NewStrictDecodingError: the strict errors of a body refused
// under fieldValidation=Strict.
export class StrictDecodingError extends Error {
  constructor(
    readonly errors: readonly string[],
    readonly dataKind: DataKind,
  ) {
    super(`strict decoding error: ${errors.join(', ')}`);
    this.name = 'StrictDecodingError';
  }
}

// TypeDecodeError is encoding/json's UnmarshalTypeError: a value of the wrong JSON type for its
// field. It is refused in every fieldValidation mode, before any strict error.
export class TypeDecodeError extends Error {
  constructor(
    message: string,
    readonly dataKind: DataKind,
  ) {
    super(message);
    this.name = 'TypeDecodeError';
  }
}

// BodyDecodeError is the serializer's failure to read the body at all: the JSON json serializer
// first reads apiVersion and kind (SimpleMetaFactory.Interpret), so every syntax error reads
// `couldn't get version/kind; json parse error: <encoding/json error>`.
export class BodyDecodeError extends Error {
  constructor(readonly jsonError: string) {
    super(`couldn't get version/kind; json parse error: ${jsonError}`);
    this.name = 'BodyDecodeError';
  }
}

export interface FieldValidationResult {
  object: Record<string, unknown>;
  warnings: string[];
}

// interpretType is the Go type Interpret unmarshals into, as encoding/json prints it.
const interpretType = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

// interpret reads the body's apiVersion and kind with Interpret's errors: a body that is not an
// object, or names them with another JSON type, cannot be decoded.
function interpret(value: unknown): { object: Record<string, unknown>; dataKind: DataKind } {
  if (value === null) return { object: {}, dataKind: { apiVersion: '', kind: '' } };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new BodyDecodeError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type ${interpretType}`);
  }
  const object = value as Record<string, unknown>;
  const dataKind: DataKind = { apiVersion: '', kind: '' };
  // in document order: encoding/json reports the first field it cannot store
  for (const name of Object.keys(object)) {
    if (name !== 'apiVersion' && name !== 'kind') continue;
    const v = object[name];
    if (typeof v === 'string') dataKind[name] = v;
    else if (v !== null) throw new BodyDecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field .${name} of type string`);
  }
  return { object, dataKind };
}

function isUnder(path: string, ancestor: string): boolean {
  if (!path.startsWith(ancestor)) return false;
  const next = path.charCodeAt(ancestor.length);
  return Number.isNaN(next) || next === 0x2e || next === 0x5b; // end, '.' or '['
}

// applyFieldValidation decodes a JSON body for a kind described by schema and applies the
// fieldValidation directive: the object comes back without unknown fields, with the warnings to
// answer; under Strict any strict error throws StrictDecodingError. An unreadable body throws
// BodyDecodeError. Both become a 400 through decodeErrorStatus.
// goKind names the Go type a built-in kind's body decodes into, whose JSON types are then
// checked and whose nulls become Go's zero values (decodeGoTypes); custom resources (no Go type:
// their schema validation checks types) pass none.
// extraStrictErrors are strict errors found before JSON (a YAML body's repeated keys); they
// come before the JSON ones, as the serializer collects them first.
export function applyFieldValidation(body: string | Buffer, schema: Schema, mode: FieldValidation, goKind?: string, extraStrictErrors: readonly string[] = []): FieldValidationResult {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  let parsed: StrictParseResult;
  try {
    // A custom resource's integers beyond 2^53 are int64s whose digits are kept, its floats are
    // marked as such (exact-integers).
    parsed = parseStrictJson(text, { duplicates: mode !== FieldValidation.Ignore, numberLiterals: goKind !== undefined || hasInexactNumber(text) });
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new BodyDecodeError(err.message);
    throw err;
  }
  const { object, dataKind } = interpret(parsed.value);
  const typeError = goKind !== undefined ? decodeGoTypes(object, schema, goKind, parsed.literals) : customResourceMetadataError(object.metadata, parsed.literals);
  if (typeError) throw new TypeDecodeError(typeError, dataKind);
  const unknown = prune(object, schema);
  if (mode === FieldValidation.Ignore) return { object, warnings: [] };

  const duplicates = parsed.duplicates.filter((d) => !unknown.some((u) => isUnder(d.path, u)));
  const errors = duplicates.map((d) => ({ offset: d.offset, message: `duplicate field ${goQuote(d.path)}` }));
  if (unknown.length > 0) {
    // Keys of the decoded object come in first-occurrence order, but integer-like keys first and
    // without the offsets that place them among the duplicates: ask the text when it matters.
    const offsets = errors.length + unknown.length > 1 ? keyOffsets(text, new Set(unknown)) : new Map<string, number>();
    for (const path of unknown) errors.push({ offset: offsets.get(path) ?? Number.MAX_SAFE_INTEGER, message: `unknown field ${goQuote(path)}` });
    errors.sort((a, b) => a.offset - b.offset);
  }
  const messages = [...new Set([...extraStrictErrors, ...errors.map((e) => e.message)])].slice(0, maxStrictErrors);

  if (mode === FieldValidation.Strict && messages.length > 0) throw new StrictDecodingError(messages, dataKind);
  return { object, warnings: messages.flatMap(strictErrorWarnings) };
}

const yamlUnmarshalErrors = 'yaml: unmarshal errors:\n  ';

// strictErrorWarnings are the Warning texts of a strict error: one per repeated key of a YAML
// body (its lines, without the YAML decoder's heading), the error itself otherwise.
export function strictErrorWarnings(message: string): string[] {
  return message.startsWith(yamlUnmarshalErrors) ? message.slice(yamlUnmarshalErrors.length).split('\n  ') : [message];
}

// GroupVersionKind names the kind a request decodes into (the handler scope's kind).
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

// parseGroupVersion is schema.ParseGroupVersion for the well-formed cases: "v1", "apps/v1".
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

// summarizeData is the handlers' summarizeData(body, 30): an object's first bytes as text,
// anything else in hex, " ..." when cut.
function summarizeData(body: string | Buffer, maxLength: number): string {
  const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (data.length === 0) return '<empty>';
  const cut = data.length > maxLength;
  const head = cut ? data.subarray(0, maxLength) : data;
  const shown = data[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return cut ? `${shown} ...` : shown;
}

// decodeErrorStatus is the handlers' transformDecodeError: the 400 BadRequest for a body that
// failed to decode into target. A strict error names the kind the body was read as
// (`Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ...`);
// an unreadable body is `the object provided is unrecognized (must be of type Deployment): ...`
// followed by a summary of the body.
export function decodeErrorStatus(err: StrictDecodingError | TypeDecodeError | BodyDecodeError, target: GroupVersionKind, body: string | Buffer): StatusError {
  if (err instanceof StrictDecodingError || err instanceof TypeDecodeError) {
    // gvkWithDefaults: an unnamed kind or version is the target's
    const data = parseGroupVersion(err.dataKind.apiVersion);
    const kind = err.dataKind.kind || target.kind;
    let version = data.version;
    if (!version && (!data.group || data.group === target.group)) version = target.version;
    return badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${target.kind}: ${err.message}`);
  }
  return unrecognizedBody(target.kind, err.message, body);
}

// unrecognizedBody is transformDecodeError for a body whose kind could not be read: the target
// kind, the decoder's message and a summary of the body.
export function unrecognizedBody(kind: string, message: string, body: string | Buffer): StatusError {
  return badRequest(`the object provided is unrecognized (must be of type ${kind}): ${message} (${summarizeData(body, 30)})`);
}

// customResourceMetadataError: a custom resource has no Go type, but its metadata is read into
// ObjectMeta all the same (apiextensions' GetObjectMeta round-trips it through JSON, so paths
// start at ObjectMeta, and metadata that is no object fails as a whole).
function customResourceMetadataError(metadata: unknown, literals: StrictParseResult['literals']): string | null {
  if (metadata === undefined || metadata === null) return null;
  if (!isPlainObject(metadata)) return `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`;
  return decodeGoTypes(metadata, objectMetaSchema, 'ObjectMeta', literals);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
