// LocalAuthorization is RBAC in the API server's own process (the all-in-one): the policy
// cache over storage, the authorizer, the ClusterRole aggregator and the bootstrap policy. The
// authz app runs the same pieces and answers over NATS. Storage may be down when it starts: the
// bootstrap policy is written as soon as storage answers, retrying with backoff meanwhile.
import { Clock, LinkState, retryUntilDone, unwatchedLink } from '@plinth/machinery';
import { ObjectStore } from '@plinth/storage';
import { ResourceDefinition, ResourceStore } from '@plinth/registry/rbac';
import { ClusterRoleAggregator } from './aggregation-controller';
import { ensureBootstrapPolicy } from './bootstrap';
import { LocalAuthorizer } from './local-authorizer';
import { RbacKind, RbacPolicyCache, rbacKinds } from './policy-cache';

export class LocalAuthorization {
  readonly cache: RbacPolicyCache;
  readonly authorizer: LocalAuthorizer;
  private readonly aggregator: ClusterRoleAggregator;
  private readonly stores: Record<RbacKind, ResourceStore>;
  private stopped = false;

  constructor(
    storage: ObjectStore,
    definitions: ResourceDefinition[],
    private readonly clock: Clock,
    onError: (err: unknown) => void = () => undefined,
    private readonly storageLink: LinkState = unwatchedLink('storage'),
  ) {
    const stores = {} as Record<RbacKind, ResourceStore>;
    for (const kind of rbacKinds) {
      const def = definitions.find((d) => d.group === 'rbac.authorization.platform.io' && d.kind === kind);
      if (!def) throw new Error(`no definition serves ${kind}`);
      stores[kind] = new ResourceStore(def, storage, clock, new Map());
    }
    this.stores = stores;
    this.cache = new RbacPolicyCache(stores, clock, storageLink);
    this.authorizer = new LocalAuthorizer(this.cache);
    this.aggregator = new ClusterRoleAggregator(this.cache, stores.ClusterRole, clock, onError);
  }

  // start creates the missing bootstrap policy, then follows storage.
  async start(): Promise<void> {
    await retryUntilDone(() => ensureBootstrapPolicy(this.stores), {
      clock: this.clock,
      link: this.storageLink,
      stopped: () => this.stopped,
    });
    if (this.stopped) return;
    this.cache.start();
    this.aggregator.start();
    await this.cache.ready();
  }

  stop(): void {
    this.stopped = true;
    this.aggregator.stop();
    this.cache.stop();
  }
}
