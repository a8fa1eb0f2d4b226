// The storage service's Watch sends the events that arrived together as one response (a message
// costs both ends far more than an event in it), and an event that arrived alone at once.
import { ClientReadableStream, credentials } from '@grpc/grpc-js';
import { storagev1 } from '@plinth/proto';
import { EmbeddedObjectStore } from '@plinth/storage';
import { StorageServer, startStorageServer } from './storage-server';

const value = (i: number) => new TextEncoder().encode(JSON.stringify({ i }));

describe('the storage service Watch', () => {
  let backend: EmbeddedObjectStore;
  let server: StorageServer;
  let client: storagev1.ObjectStoreClient;

  beforeAll(async () => {
    backend = new EmbeddedObjectStore();
    // A watch from revision 0 would start at the current revision; the tests' start after this.
    await backend.create('/seed', value(0));
    server = await startStorageServer(backend, { address: '127.0.0.1:0' });
    client = new storagev1.ObjectStoreClient(server.address, credentials.createInsecure());
  });

  afterAll(async () => {
    client.close();
    await server.shutdown();
    await backend.close();
  });

  // responses collects a watch's responses, resolving `until` once `count` events have come.
  function responses(stream: ClientReadableStream<storagev1.WatchResponse>) {
    const received: storagev1.WatchResponse[] = [];
    let waiting: { count: number; resolve: () => void } | undefined;
    const events = () => received.reduce((sum, r) => sum + r.events.length, 0);
    stream.on('data', (response: storagev1.WatchResponse) => {
      received.push(response);
      if (waiting && events() >= waiting.count) waiting.resolve();
    });
    stream.on('error', () => undefined);
    return {
      received,
      until: (count: number) => new Promise<void>((resolve) => (events() >= count ? resolve() : (waiting = { count, resolve }))),
    };
  }

  // attached opens a watch of prefix from the current revision and resolves once a first write's
  // event came back: the service has then attached the watch to the store (its start revision
  // replays what came before).
  async function attached(prefix: string) {
    const stream = client.watch({ prefix, key: undefined, revision: await backend.currentRevision(), progressNotify: false });
    const watch = responses(stream);
    await backend.create(`${prefix}probe`, value(0));
    await watch.until(1);
    return { stream, watch };
  }

  it('sends the writes of one turn as one response, in revision order', async () => {
    const { stream, watch } = await attached('/b/');
    try {
      const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => backend.create(`/b/burst-${i}`, value(i))));
      await watch.until(21);
      const sent = watch.received.slice(1);
      expect(sent).toHaveLength(1);
      expect(sent[0].events.map((e) => e.kv?.key)).toEqual(burst.map((kv) => kv.key));
      expect(sent[0].events.map((e) => e.revision)).toEqual(burst.map((kv) => kv.revision));
    } finally {
      stream.cancel();
    }
  });

  it('sends an event that arrives alone at once, in a response of its own', async () => {
    const { stream, watch } = await attached('/a/');
    try {
      const last = await backend.create('/a/last', value(1));
      await watch.until(2);
      expect(watch.received.map((r) => r.events.map((e) => e.kv?.key))).toEqual([['/a/probe'], [last.key]]);
    } finally {
      stream.cancel();
    }
  });
});
