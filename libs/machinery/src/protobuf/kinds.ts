// The protobuf envelope of application/vnd.kubernetes.protobuf (and vnd.platform.protobuf):
// the magic prefix k8s\0, then runtime.Unknown {typeMeta {apiVersion, kind}, raw,
// contentEncoding, contentType}, raw holding the object's message. Watch streams frame each
// event as a 4-byte big-endian length and an enveloped WatchEvent {type, object: {raw:
// <enveloped object>}}, the event's typeMeta naming the watched group/version.
import { k8sCodec, ProtoWriter } from './codec';
import { k8sKinds } from './k8s-messages';
import { ProtobufError } from './wire';

export const protobufMagic = Uint8Array.from([0x6b, 0x38, 0x73, 0x00]);

// k8sGroupVersion spells a served group/version as Kubernetes does (*.platform.io as *.k8s.io).
function k8sGroupVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return apiVersion;
  return `${apiVersion.slice(0, slash).replace(/\.platform\.io$/, '.k8s.io')}${apiVersion.slice(slash)}`;
}

// protobufMessageOf names the message of a kind, or undefined for kinds without one (custom
// resources, which are never protobuf).
export function protobufMessageOf(apiVersion: string, kind: string): string | undefined {
  return k8sKinds[k8sGroupVersion(apiVersion)]?.[kind];
}

export function hasProtobufCodec(apiVersion: string, kind: string): boolean {
  return protobufMessageOf(apiVersion, kind) !== undefined;
}

function messageOf(apiVersion: string, kind: string): string {
  const message = protobufMessageOf(apiVersion, kind);
  if (!message) throw new ProtobufError(`no protobuf message for ${apiVersion}, Kind=${kind}`);
  return message;
}

export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  return Buffer.concat([protobufMagic, k8sCodec.encode('runtime.Unknown', { typeMeta: { apiVersion, kind }, raw: Buffer.from(raw).toString('base64') })]);
}

// encodeProtobufObject writes an object of a served kind in the envelope; apiVersion and kind
// name what the envelope says (the group the client addressed).
export function encodeProtobufObject(apiVersion: string, kind: string, object: unknown): Uint8Array {
  return encodeEnvelope(apiVersion, kind, k8sCodec.encode(messageOf(apiVersion, kind), object));
}

// encodeProtobufStatus writes a meta/v1 Status, which kube-apiserver envelopes as v1 Status.
export function encodeProtobufStatus(status: unknown): Uint8Array {
  return encodeEnvelope('v1', 'Status', k8sCodec.encode('meta.v1.Status', status));
}

// encodeWatchFrame frames one watch event around an already enveloped object.
export function encodeWatchFrame(groupVersion: string, type: string, object: Uint8Array): Uint8Array {
  const rawExtension = new ProtoWriter();
  rawExtension.bytes(1, object);
  const event = new ProtoWriter();
  event.bytes(1, new TextEncoder().encode(type));
  event.bytes(2, rawExtension.finish());
  const envelope = encodeEnvelope(groupVersion, 'WatchEvent', event.finish());
  const frame = Buffer.alloc(4 + envelope.length);
  frame.writeUInt32BE(envelope.length, 0);
  frame.set(envelope, 4);
  return frame;
}

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

export function decodeEnvelope(data: Uint8Array): Envelope {
  if (data.length < 4 || !protobufMagic.every((b, i) => data[i] === b)) throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  const unknown = k8sCodec.decode('runtime.Unknown', data.subarray(4));
  if (unknown.contentEncoding) throw new ProtobufError(`unsupported content encoding ${String(unknown.contentEncoding)}`);
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  return { apiVersion: typeMeta.apiVersion ?? '', kind: typeMeta.kind ?? '', raw: Buffer.from(String(unknown.raw ?? ''), 'base64') };
}

export interface DecodedProtobuf {
  apiVersion: string;
  kind: string;
  object: Record<string, unknown>;
}

// decodeProtobufObject reads an enveloped object of a served kind into its JSON form.
export function decodeProtobufObject(data: Uint8Array): DecodedProtobuf {
  const { apiVersion, kind, raw } = decodeEnvelope(data);
  // DeleteOptions is registered in every group version.
  const message = protobufMessageOf(apiVersion, kind) ?? (kind === 'DeleteOptions' ? k8sKinds['meta.k8s.io/v1'].DeleteOptions : undefined);
  if (!message) throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  const decoded = k8sCodec.decode(message, raw);
  return { apiVersion, kind, object: { apiVersion, kind, ...decoded } };
}
