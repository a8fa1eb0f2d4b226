// startAuthorization is the API server's authorizer choice (~ kube-apiserver's
// BuildAuthorizer): with --nats-url it asks the authz app over NATS, which owns the bootstrap
// policy and the ClusterRole aggregation; without, RBAC, its bootstrap and aggregation run in
// this process over the server's own store.
import { Authorizer, DeferredAuthorizer, HealthCheck, ServerFlags } from '@plinth/apiserver';
import { LocalAuthorization } from '@plinth/authz';
import { AuthzLinkMetrics, connectNats, NatsAuthorizer, NatsLinkSettings } from '@plinth/authz-nats';
import { Clock, LinkState } from '@plinth/machinery';
import { Registry } from '@plinth/metrics';
import { ResourceDefinition } from '@plinth/registry';
import { ObjectStore } from '@plinth/storage';

export interface Authorization {
  readonly authorizer: Authorizer;
  // readyChecks join /readyz: what the authorizer still waits for.
  readonly readyChecks: HealthCheck[];
  // connected resolves once the authorizer answers (at once for RBAC in process); it rejects
  // when NATS refuses the link's settings.
  readonly connected: Promise<void>;
  stop(): Promise<void>;
}

export interface AuthorizationOptions {
  flags: ServerFlags;
  store: ObjectStore;
  definitions: ResourceDefinition[];
  clock: Clock;
  metrics: Registry;
  links: { storage: LinkState; nats: LinkState };
  warn: (line: string) => void;
}

export async function startAuthorization(options: AuthorizationOptions): Promise<Authorization> {
  return options.flags.natsUrl ? remoteAuthorization(options) : localAuthorization(options);
}

async function localAuthorization(options: AuthorizationOptions): Promise<Authorization> {
  const local = new LocalAuthorization(options.store, options.definitions, options.clock, (err) => options.warn(`authorization: ${(err as Error).message}`), options.links.storage);
  await local.start();
  return { authorizer: local.authorizer, readyChecks: [], connected: Promise.resolve(), stop: async () => local.stop() };
}

// remoteAuthorization connects to NATS in the background: the gateway serves meanwhile,
// /readyz's nats check failing and every question but system:masters' answered 500.
function remoteAuthorization(options: AuthorizationOptions): Authorization {
  const deferred = new DeferredAuthorizer('the connection to the authz service over NATS');
  let stopped = false;
  let link: { connection: Awaited<ReturnType<typeof connectNats>>; authorizer: NatsAuthorizer } | null = null;
  const connected = (async () => {
    const connection = await connectNats({ settings: natsLinkOf(options.flags), name: 'plinth-gateway', link: options.links.nats });
    if (stopped) return void (await connection.close());
    const authorizer = new NatsAuthorizer(connection, { metrics: new AuthzLinkMetrics(options.metrics) });
    link = { connection, authorizer };
    await authorizer.ready();
    deferred.set(authorizer);
  })();
  // Settings NATS refuses fail the start-up where awaited, not before as an unhandled rejection.
  connected.catch(() => undefined);
  return {
    authorizer: deferred,
    readyChecks: [deferred.readyCheck('nats')],
    connected,
    async stop() {
      stopped = true;
      if (!link) return;
      link.authorizer.close();
      if (!link.connection.isClosed()) await link.connection.drain();
    },
  };
}

// natsLinkOf is the gateway's NATS link as its flags describe it.
export function natsLinkOf(flags: ServerFlags): NatsLinkSettings {
  return { url: flags.natsUrl, caFile: flags.natsCAFile, user: flags.natsUser, passwordFile: flags.natsPasswordFile, insecure: flags.natsInsecure };
}
