// readStatus reads an error answer's body as a Status in whatever format it came (JSON, YAML or
// protobuf), or says why it is not one.
import { parse as parseYaml } from 'yaml';
import { protobufMagic } from './protobuf-wire';

export interface StatusFields {
  kind: unknown;
  apiVersion: unknown;
  code: unknown;
}

export function readStatus(contentType: string, body: Buffer): StatusFields | string {
  const media = contentType.split(';')[0].trim().toLowerCase();
  try {
    if (media === 'application/json') return fields(JSON.parse(body.toString('utf8')));
    if (media === 'application/yaml') return fields(parseYaml(body.toString('utf8')));
    if (media === 'application/vnd.kubernetes.protobuf') return protobufStatus(body);
  } catch (err) {
    return `an unreadable ${media} body (${(err as Error).message}): ${body.toString('utf8').slice(0, 200)}`;
  }
  return `a ${media || 'typeless'} body, not a Status: ${body.toString('utf8').slice(0, 200)}`;
}

function fields(value: unknown): StatusFields | string {
  if (value === null || typeof value !== 'object') return `not an object: ${JSON.stringify(value)?.slice(0, 200)}`;
  const { kind, apiVersion, code } = value as Record<string, unknown>;
  return { kind, apiVersion, code };
}

// protobufStatus reads runtime.Unknown {typeMeta=1 {apiVersion=1, kind=2}, raw=2} and, in raw,
// Status.code (field 6).
function protobufStatus(body: Buffer): StatusFields | string {
  if (!body.subarray(0, 4).equals(protobufMagic)) return 'a protobuf body without the k8s magic';
  const unknown = readMessage(body.subarray(4));
  const typeMeta = readMessage(unknown.get(1) as Buffer);
  const status = readMessage(unknown.get(2) as Buffer);
  return { apiVersion: (typeMeta.get(1) as Buffer)?.toString(), kind: (typeMeta.get(2) as Buffer)?.toString(), code: status.get(6) };
}

// readMessage keeps the last value of each field: varints as numbers, length-delimited as bytes.
function readMessage(data: Buffer | undefined): Map<number, Buffer | number> {
  const out = new Map<number, Buffer | number>();
  if (!data) return out;
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (at >= data.length) throw new Error('truncated varint');
      const byte = data[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  };
  while (at < data.length) {
    const key = varint();
    const wireType = key & 7;
    if (wireType === 0) out.set(key >>> 3, varint());
    else if (wireType === 2) {
      const length = varint();
      out.set(key >>> 3, data.subarray(at, at + length));
      at += length;
    } else throw new Error(`wire type ${wireType}`);
  }
  return out;
}
