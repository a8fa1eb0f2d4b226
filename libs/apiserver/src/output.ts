// writeResult answers a resource request with an object or a list in the negotiated
// representation.
import { KubeList, KubeObject } from '@plinth/api';
import { encodeProtobufObject, encodeProtobufStatus, StatusError, stringifyJson } from '@plinth/machinery';
import { protobufContentType, writeBody, writeEncoded } from './http/respond';
import { ItemsWriter, withoutTypeMeta } from './item-json';
import { clientApiVersion, present, RequestScope } from './scope';
import { toTable } from './table-output';

// Typed is a body naming its apiVersion and kind.
interface Typed {
  apiVersion?: string;
  kind?: string;
  [field: string]: unknown;
}

export function writeResult(scope: RequestScope, code: number, object: KubeObject): void {
  const presented = present(scope, object);
  if (scope.representation.type === 'partial') {
    if (scope.representation.list) throw partialMismatch(scope, false);
    writeBody(scope.res, code, partialObjectMetadata(scope, object), scope.response);
    return;
  }
  if (scope.representation.type === 'table') {
    writeBody(scope.res, code, toTable(scope, [presented], { resourceVersion: object.metadata.resourceVersion }), scope.response);
    return;
  }
  if (scope.representation.type === 'protobuf') return writeProtobuf(scope, code, presented);
  if (scope.representation.type === 'json' && !scope.response.pretty && Object.isFrozen(object)) {
    writeEncoded(scope.res, code, cachedJson(object, presented), scope.response, 'application/json');
    return;
  }
  writeBody(scope.res, code, presented, { ...scope.response, yaml: scope.representation.type === 'yaml' });
}

// cachedJson is the JSON body (with its newline) of a watch cache's object (frozen, shared) as
// presented to a client, made once for each apiVersion it is served as (its group's, and its
// *.k8s.io alias's).
const objectJson = new WeakMap<KubeObject, Map<string | undefined, string>>();

function cachedJson(object: KubeObject, presented: KubeObject): string {
  let byApiVersion = objectJson.get(object);
  if (byApiVersion === undefined) {
    byApiVersion = new Map();
    objectJson.set(object, byApiVersion);
  }
  let json = byApiVersion.get(presented.apiVersion);
  if (json === undefined) {
    json = `${stringifyJson(presented)}\n`;
    byApiVersion.set(presented.apiVersion, json);
  }
  return json;
}

export function writeList(scope: RequestScope, list: KubeList): void {
  if (scope.representation.type === 'partial') {
    if (!scope.representation.list) throw partialMismatch(scope, true);
    const items = list.items.map((o) => partialObjectMetadata(scope, o));
    writeBody(scope.res, 200, { kind: 'PartialObjectMetadataList', apiVersion: partialApiVersion(scope), metadata: list.metadata, items }, scope.response);
    return;
  }
  if (scope.representation.type === 'table') {
    writeBody(scope.res, 200, toTable(scope, list.items.map((o) => present(scope, o)), list.metadata), scope.response);
    return;
  }
  if (scope.representation.type === 'json' && !scope.response.pretty) {
    writeEncoded(scope.res, 200, listJson(scope, list), scope.response, 'application/json');
    return;
  }
  // Items of a built-in list carry no apiVersion and kind, as kube-apiserver writes them;
  // custom resources (unstructured) keep theirs.
  const body = { ...list, apiVersion: clientApiVersion(scope), items: scope.def.unstructured ? list.items : list.items.map(withoutTypeMeta) };
  if (scope.representation.type === 'protobuf') return writeProtobuf(scope, 200, body);
  writeBody(scope.res, 200, body, { ...scope.response, yaml: scope.representation.type === 'yaml' });
}

function partialApiVersion(scope: RequestScope): string {
  const { group, version } = scope.representation.type === 'partial' ? scope.representation : { group: 'meta.platform.io', version: 'v1' };
  return `${group}/${version}`;
}

// partialObjectMetadata is an object as a metadata-only client reads it.
export function partialObjectMetadata(scope: RequestScope, object: KubeObject): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: partialApiVersion(scope), metadata: object.metadata };
}

// partialMismatch is the 406 of a client that named the one kind where the other answers, in
// the transformer's words (the Go type of the internal object: *coordination.LeaseList).
function partialMismatch(scope: RequestScope, isList: boolean): StatusError {
  const pkg = scope.def.group === '' ? 'core' : scope.def.group.split('.')[0];
  const goType = `*${pkg}.${isList ? scope.def.listKind : scope.def.kind}`;
  const message = isList ? `you requested PartialObjectMetadata, but the requested object is a list (${goType})` : `you requested PartialObjectMetadataList, but the requested object is not a list (${goType})`;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'NotAcceptable', code: 406 });
}

// writeAny answers with a body that is not of the resource's kind (Status, a review).
export function writeAny(scope: RequestScope, code: number, body: unknown): void {
  if (scope.representation.type === 'protobuf') return writeProtobuf(scope, code, body as Typed);
  writeBody(scope.res, code, body, { ...scope.response, yaml: scope.representation.type === 'yaml' });
}

// writeProtobuf answers the envelope of an object, list or Status (meta/v1 Status is enveloped
// as v1 Status, as kube-apiserver does).
function writeProtobuf(scope: RequestScope, code: number, body: Typed): void {
  const data = body.kind === 'Status' ? encodeProtobufStatus(body) : encodeProtobufObject(String(body.apiVersion), String(body.kind), body);
  writeEncoded(scope.res, code, data, scope.response, protobufContentType);
}

// listJson assembles a JSON list from the UTF-8 JSON of each item, made once for an object of a
// watch cache (frozen, shared by every list that holds it) and reused until the object changes
// (item-json.ts). The list is bytes, copied once: as one string of many pieces it would be
// flattened and encoded again for its length and its write.
function listJson(scope: RequestScope, list: KubeList): Buffer {
  const unstructured = scope.def.unstructured ?? false;
  const head = `{"kind":${JSON.stringify(list.kind)},"apiVersion":${JSON.stringify(clientApiVersion(scope))},"metadata":${JSON.stringify(list.metadata)},"items":[`;
  const items = new ItemsWriter();
  for (const object of list.items) items.add(object, unstructured);
  const headLength = Buffer.byteLength(head);
  const out = Buffer.allocUnsafe(headLength + items.length + listEnd.length);
  out.write(head, 0);
  const end = items.write(out, headLength);
  out.write(listEnd, end, 'latin1');
  return out;
}

const listEnd = ']}\n';
