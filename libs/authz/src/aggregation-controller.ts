// ClusterRoleAggregator keeps the rules of every ClusterRole with an aggregationRule equal to
// the union of the rules of the ClusterRoles its selectors match, rewriting them when roles
// change (direct edits are overwritten), as Kubernetes' clusterrole-aggregation controller. Like
// it, the rules are written by a forced server-side apply of the rules alone, so the role's
// managedFields name `clusterrole-aggregation-controller` as the Apply manager of `rules`.
import { applyObject } from '@plinth/apply';
import { KubeObject } from '@plinth/api';
import { Clock, isStatusError } from '@plinth/machinery';
import { ClusterRole, ClusterRoleAggregationController, pendingAggregations, PolicyRule } from '@plinth/rbac';
import { ResourceStore } from '@plinth/registry/rbac';
import { RbacPolicyCache } from './policy-cache';

export class ClusterRoleAggregator {
  private unsubscribe: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly cache: RbacPolicyCache,
    private readonly clusterRoles: ResourceStore,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  start(): void {
    this.unsubscribe = this.cache.onChange(() => void this.sync());
    void this.sync();
  }

  stop(): void {
    this.unsubscribe?.();
  }

  // sync applies every pending aggregation; changes arriving meanwhile cause one more pass.
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.cache.ready();
        for (const pending of pendingAggregations(this.cache.clusterRoles() as unknown as ClusterRole[])) {
          if ('rules' in pending && pending.rules) await this.write(pending.name, pending.rules);
          else if ('error' in pending) this.onError(new Error(`aggregating clusterrole ${pending.name}: ${pending.error}`));
        }
      } while (this.again);
    })()
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async write(name: string, rules: PolicyRule[]): Promise<void> {
    const store = this.clusterRoles;
    try {
      await store.update(undefined, name, (current) => {
        if (!current) throw new Error(`clusterrole ${name} vanished`);
        const applied = { apiVersion: store.apiVersion, kind: store.def.kind, metadata: { name }, rules } as unknown as KubeObject;
        const result = applyObject({
          live: current,
          applied,
          manager: ClusterRoleAggregationController,
          force: true,
          apiVersion: store.apiVersion,
          schema: store.def.schema,
          now: new Date(this.clock.now()),
        });
        return { ...result.object, metadata: { ...result.object.metadata, managedFields: result.managedFields, resourceVersion: current.metadata.resourceVersion } };
      });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }
}
