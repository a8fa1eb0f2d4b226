// ClusterRoleAggregator keeps the rules of every ClusterRole with an aggregationRule equal to
// the union of the rules of the ClusterRoles its selectors match, rewriting them when roles
// change (direct edits are overwritten), as Kubernetes' clusterrole-aggregation controller.
import { isStatusError } from '@plinth/machinery';
import { ClusterRole, pendingAggregations } from '@plinth/rbac';
import { ResourceStore } from '@plinth/registry';
import { RbacPolicyCache } from './policy-cache';

export class ClusterRoleAggregator {
  private unsubscribe: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly cache: RbacPolicyCache,
    private readonly clusterRoles: ResourceStore,
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

  private async write(name: string, rules: unknown): Promise<void> {
    try {
      await this.clusterRoles.update(undefined, name, (current) => {
        if (!current) throw new Error(`clusterrole ${name} vanished`);
        return { ...current, rules };
      });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }
}
