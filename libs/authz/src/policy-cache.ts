// RbacPolicyCache keeps an RbacPolicy equal to the Roles, ClusterRoles, RoleBindings and
// ClusterRoleBindings in storage, through one StoreInformer per kind, and tells listeners when
// the policy changed (the authz app publishes that, so gateways drop cached decisions).
import { KubeObject } from '@plinth/api';
import { Clock, LinkState } from '@plinth/machinery';
import { RbacPolicy } from '@plinth/rbac';
import { ResourceStore, StoreInformer } from '@plinth/registry/rbac';

export const rbacKinds = ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as const;
export type RbacKind = (typeof rbacKinds)[number];

export class RbacPolicyCache {
  readonly policy = new RbacPolicy();
  private readonly informers: StoreInformer[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly synced = new Set<RbacKind>();
  private readonly objects = new Map<RbacKind, Map<string, KubeObject>>();
  private readyWaiters: (() => void)[] = [];

  constructor(
    stores: Record<RbacKind, ResourceStore>,
    clock: Clock,
    storageLink?: LinkState,
  ) {
    for (const kind of rbacKinds) {
      this.objects.set(kind, new Map());
      this.informers.push(new StoreInformer(stores[kind], this.handlerFor(kind), clock, storageLink));
    }
  }

  start(): void {
    for (const informer of this.informers) informer.start();
  }

  stop(): void {
    for (const informer of this.informers) informer.stop();
  }

  // ready resolves once every kind has been listed.
  ready(): Promise<void> {
    if (this.synced.size === rbacKinds.length) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // clusterRoles returns the ClusterRoles as stored (for aggregation).
  clusterRoles(): KubeObject[] {
    return [...(this.objects.get('ClusterRole')?.values() ?? [])];
  }

  private handlerFor(kind: RbacKind) {
    const objects = this.objects.get(kind) as Map<string, KubeObject>;
    const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
    return {
      replace: (items: KubeObject[]) => {
        for (const old of objects.values()) this.policy.delete({ ...old, kind } as never);
        objects.clear();
        for (const item of items) {
          objects.set(keyOf(item), item);
          this.policy.add({ ...item, kind } as never);
        }
        this.synced.add(kind);
        if (this.synced.size === rbacKinds.length) {
          for (const resolve of this.readyWaiters.splice(0)) resolve();
        }
        this.changed();
      },
      upsert: (item: KubeObject) => {
        objects.set(keyOf(item), item);
        this.policy.add({ ...item, kind } as never);
        this.changed();
      },
      remove: (item: KubeObject) => {
        objects.delete(keyOf(item));
        this.policy.delete({ ...item, kind } as never);
        this.changed();
      },
    };
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
