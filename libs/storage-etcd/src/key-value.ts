// Conversions between etcd3's wire shapes (revisions as decimal strings, Buffers) and KeyValue.
import { IKeyValue } from 'etcd3';
import { KeyValue } from '@plinth/storage';

export function toKeyValue(kv: IKeyValue): KeyValue {
  return {
    key: kv.key.toString('utf8'),
    value: kv.value,
    revision: Number(kv.mod_revision),
    createRevision: Number(kv.create_revision),
  };
}

// bytes views a value as a Buffer without copying it.
export function bytes(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
