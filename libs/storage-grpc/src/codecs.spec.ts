// The shared-writer serializers write the bytes ts-proto's own do, message after message, after
// a message larger than the writer keeps and after one that failed to encode.
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { storagev1 } from '@plinth/proto';
import { encoded, objectStoreService } from './codecs';

function watchResponse(valueBytes: number, revision: number): storagev1.WatchResponse {
  const kv = { key: `/registry/storage.platform.io/storageclasses/sc-${revision}`, value: Buffer.alloc(valueBytes, 0x61 + (revision % 26)), revision, createRevision: revision };
  return { events: [{ type: storagev1.WatchEventType.WATCH_EVENT_TYPE_ADDED, revision, kv, prevKv: undefined }] };
}

function tsProtoBytes(message: storagev1.WatchResponse): Buffer {
  return Buffer.from(storagev1.WatchResponse.encode(message).finish());
}

describe('objectStoreService serializers', () => {
  it('encode as ts-proto does, whatever came before', () => {
    for (const [size, revision] of [[10, 1], [700, 2], [3, 3], [1024 * 1024, 4], [50, 5], [0, 6]]) {
      const message = watchResponse(size, revision);
      const bytes = objectStoreService.watch.responseSerialize(message);
      expect(bytes.equals(tsProtoBytes(message))).toBe(true);
      expect(storagev1.WatchResponse.decode(bytes)).toEqual(storagev1.WatchResponse.decode(tsProtoBytes(message)));
    }
  });

  it('hand out bytes that a later message does not overwrite', () => {
    const first = objectStoreService.exchange.requestSerialize({ id: 1, traceContext: {}, batch: [], create: { key: '/a', value: Buffer.from('first'), omitValue: false } });
    objectStoreService.exchange.requestSerialize({ id: 2, traceContext: {}, batch: [], create: { key: '/b', value: Buffer.from('second, longer'), omitValue: false } });
    expect(storagev1.ExchangeRequest.decode(first)).toMatchObject({ id: 1, create: { key: '/a', value: Buffer.from('first') } });
  });

  it('start afresh after a message that failed half-way', () => {
    const failing = {
      encode(_message: unknown, writer: BinaryWriter): BinaryWriter {
        writer.fork().uint32(300).string('half of a message');
        throw new Error('bad message');
      },
    };
    expect(() => encoded(failing, {})).toThrow('bad message');
    const message = watchResponse(20, 7);
    expect(objectStoreService.watch.responseSerialize(message).equals(tsProtoBytes(message))).toBe(true);
  });
});
