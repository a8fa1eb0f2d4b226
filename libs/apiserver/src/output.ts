// writeResult answers a resource request with an object or a list in the negotiated
// representation.
import { KubeList, KubeObject } from '@plinth/api';
import { encodeProtobufObject, encodeProtobufStatus } from '@plinth/machinery';
import { protobufContentType, writeBody, writeEncoded } from './http/respond';
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
  if (scope.representation.type === 'table') {
    writeBody(scope.res, code, toTable(scope, [presented], { resourceVersion: object.metadata.resourceVersion }), scope.response);
    return;
  }
  if (scope.representation.type === 'protobuf') return writeProtobuf(scope, code, presented);
  writeBody(scope.res, code, presented, { ...scope.response, yaml: scope.representation.type === 'yaml' });
}

export function writeList(scope: RequestScope, list: KubeList): void {
  if (scope.representation.type === 'table') {
    writeBody(scope.res, 200, toTable(scope, list.items.map((o) => present(scope, o)), list.metadata), scope.response);
    return;
  }
  // Items of a built-in list carry no apiVersion and kind, as kube-apiserver writes them;
  // custom resources (unstructured) keep theirs.
  const body = { ...list, apiVersion: clientApiVersion(scope), items: scope.def.unstructured ? list.items : list.items.map(withoutTypeMeta) };
  if (scope.representation.type === 'protobuf') return writeProtobuf(scope, 200, body);
  writeBody(scope.res, 200, body, { ...scope.response, yaml: scope.representation.type === 'yaml' });
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

function withoutTypeMeta(object: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = object;
  return rest as KubeObject;
}
