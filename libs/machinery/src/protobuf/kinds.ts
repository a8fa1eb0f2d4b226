// The protobuf envelope of application/vnd.kubernetes.protobuf (and vnd.platform.protobuf):
// the magic prefix k8s\0, then runtime.Unknown {typeMeta, raw, contentEncoding, contentType},
// and the message tables of the kinds decoded from it (field numbers of Kubernetes'
// generated.proto files).
import { decodeMessage, MessageTable } from './messages';
import { ProtobufError } from './wire';

export const protobufMagic = Uint8Array.from([0x6b, 0x38, 0x73, 0x00]);

const str = { kind: 'string' as const };
const int = { kind: 'int' as const };
const bool = { kind: 'bool' as const };
const time = { kind: 'time' as const };
const map = { kind: 'map' as const };
const message = (table: MessageTable) => ({ kind: 'message' as const, message: table });

const ownerReference: MessageTable = {
  1: { name: 'kind', type: str },
  3: { name: 'name', type: str },
  4: { name: 'uid', type: str },
  5: { name: 'apiVersion', type: str },
  6: { name: 'controller', type: bool },
  7: { name: 'blockOwnerDeletion', type: bool },
};

export const objectMetaTable: MessageTable = {
  1: { name: 'name', type: str },
  2: { name: 'generateName', type: str },
  3: { name: 'namespace', type: str },
  5: { name: 'uid', type: str },
  6: { name: 'resourceVersion', type: str },
  7: { name: 'generation', type: int },
  8: { name: 'creationTimestamp', type: time },
  11: { name: 'labels', type: map },
  12: { name: 'annotations', type: map },
  13: { name: 'ownerReferences', type: message(ownerReference), repeated: true },
  14: { name: 'finalizers', type: str, repeated: true },
};

const subject: MessageTable = { 1: { name: 'kind', type: str }, 2: { name: 'apiGroup', type: str }, 3: { name: 'name', type: str }, 4: { name: 'namespace', type: str } };
const roleRef: MessageTable = { 1: { name: 'apiGroup', type: str }, 2: { name: 'kind', type: str }, 3: { name: 'name', type: str } };
const binding: MessageTable = {
  1: { name: 'metadata', type: message(objectMetaTable) },
  2: { name: 'subjects', type: message(subject), repeated: true },
  3: { name: 'roleRef', type: message(roleRef) },
};
const policyRule: MessageTable = {
  1: { name: 'verbs', type: str, repeated: true },
  2: { name: 'apiGroups', type: str, repeated: true },
  3: { name: 'resources', type: str, repeated: true },
  4: { name: 'resourceNames', type: str, repeated: true },
  5: { name: 'nonResourceURLs', type: str, repeated: true },
};
const labelSelectorRequirement: MessageTable = { 1: { name: 'key', type: str }, 2: { name: 'operator', type: str }, 3: { name: 'values', type: str, repeated: true } };
const labelSelector: MessageTable = { 1: { name: 'matchLabels', type: map }, 2: { name: 'matchExpressions', type: message(labelSelectorRequirement), repeated: true } };
const role: MessageTable = {
  1: { name: 'metadata', type: message(objectMetaTable) },
  2: { name: 'rules', type: message(policyRule), repeated: true },
  3: { name: 'aggregationRule', type: message({ 1: { name: 'clusterRoleSelectors', type: message(labelSelector), repeated: true } }) },
};

// kindTables names the kinds the server decodes from protobuf, by kind.
export const kindTables: Record<string, MessageTable> = {
  RoleBinding: binding,
  ClusterRoleBinding: binding,
  Role: role,
  ClusterRole: role,
  Namespace: { 1: { name: 'metadata', type: message(objectMetaTable) } },
  ServiceAccount: { 1: { name: 'metadata', type: message(objectMetaTable) } },
};

export interface DecodedProtobuf {
  apiVersion: string;
  kind: string;
  object: Record<string, unknown>;
}

// decodeProtobufObject reads an enveloped object; kinds without a table are refused.
export function decodeProtobufObject(data: Uint8Array): DecodedProtobuf {
  if (data.length < 4 || !protobufMagic.every((b, i) => data[i] === b)) throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  const unknown = decodeMessage(data.subarray(4), {
    1: { name: 'typeMeta', type: message({ 1: { name: 'apiVersion', type: str }, 2: { name: 'kind', type: str } }) },
    2: { name: 'raw', type: { kind: 'bytes' } },
    3: { name: 'contentEncoding', type: str },
  });
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  if (unknown.contentEncoding) throw new ProtobufError(`unsupported content encoding ${String(unknown.contentEncoding)}`);
  const kind = typeMeta.kind ?? '';
  const table = kindTables[kind];
  if (!table) throw new ProtobufError(`protobuf bodies of kind ${kind || '(none)'} are not supported; send JSON`);
  const raw = Buffer.from(String(unknown.raw ?? ''), 'base64');
  return { apiVersion: typeMeta.apiVersion ?? '', kind, object: { apiVersion: typeMeta.apiVersion, kind, ...decodeMessage(raw, table) } };
}
