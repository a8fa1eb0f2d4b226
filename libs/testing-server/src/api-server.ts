import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ApiServer, assembleApiServer, defaultServerFlags, ensureSystemNamespaces, NamespaceFinalizer, openApiRoutes, ServerFlags } from '@plinth/apiserver';
import { Clock, realClock } from '@plinth/machinery';
import { builtinDefinitions } from '@plinth/registry';
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';

export interface TestApiServer {
  readonly url: string;
  readonly apiServer: ApiServer;
  readonly store: ObjectStore;
  stop(): Promise<void>;
}

// startTestApiServer serves the real API server handler over plain HTTP on a free loopback port,
// on an embedded store (or the one given), for HTTP-level tests.
export async function startTestApiServer(flags: Partial<ServerFlags> = {}, options: { store?: ObjectStore; clock?: Clock } = {}): Promise<TestApiServer> {
  const store = options.store ?? new EmbeddedObjectStore({ progressNotifyIntervalMs: 200 });
  const apiServer = assembleApiServer({
    flags: { ...defaultServerFlags, ...flags },
    storage: store,
    definitions: builtinDefinitions(),
    clock: options.clock,
    extraRoutes: (catalog) => [openApiRoutes(catalog)],
  });
  await ensureSystemNamespaces(apiServer);
  const finalizer = new NamespaceFinalizer(apiServer.context, options.clock ?? realClock, 100);
  finalizer.start();
  const server: Server = createServer(apiServer.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiServer,
    store,
    async stop() {
      finalizer.stop();
      apiServer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.store) await store.close();
    },
  };
}
