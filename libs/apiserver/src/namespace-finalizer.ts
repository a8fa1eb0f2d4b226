// NamespaceFinalizer empties terminating namespaces: it deletes every namespaced object in a
// namespace whose deletion started, and once nothing is left removes the namespace's
// "kubernetes" finalizer through the finalize subresource, which lets the deletion complete.
// It is what the namespace controller does in Kubernetes; it runs inside the API server
// process until the controllers app hosts it as an API client.
import { Clock, isStatusError, Timer } from '@plinth/machinery';
import { KubeObject } from '@plinth/api';
import { ServerContext } from './server-context';

export const namespaceFinalizerName = 'kubernetes';

export class NamespaceFinalizer {
  private timer: Timer | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly context: ServerContext,
    private readonly clock: Clock,
    private readonly intervalMs = 500,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  start(): void {
    this.timer ??= this.clock.setInterval(() => void this.sync(), this.intervalMs);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = null;
  }

  // sync finalizes every terminating namespace once; concurrent calls share one pass.
  sync(): Promise<void> {
    this.running ??= this.syncAll()
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async syncAll(): Promise<void> {
    const namespaces = this.context.catalog.lookup('', 'v1', 'namespaces');
    if (!namespaces) return;
    const store = this.context.storeFor(namespaces);
    const list = await store.list(undefined);
    for (const ns of list.items) {
      if (ns.metadata.deletionTimestamp) await this.finalize(ns);
    }
  }

  private async finalize(ns: KubeObject): Promise<void> {
    const name = ns.metadata.name ?? '';
    const remaining = await this.deleteContent(name);
    if (remaining > 0) return;
    const namespaces = this.context.catalog.lookup('', 'v1', 'namespaces');
    if (!namespaces) return;
    const finalizers = ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).filter((f) => f !== namespaceFinalizerName);
    try {
      await this.context.storeFor(namespaces).update(undefined, name, { ...ns, spec: { ...(ns.spec as object), finalizers } }, { subresource: 'finalize' });
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  // deleteContent deletes what the namespace holds and returns how many objects remain.
  private async deleteContent(namespace: string): Promise<number> {
    let remaining = 0;
    for (const def of this.context.catalog.all()) {
      if (!def.namespaced || def.virtual || !def.verbs.includes('delete')) continue;
      const store = this.context.storeFor(def);
      const list = await store.list(namespace);
      for (const object of list.items) {
        remaining++;
        if (object.metadata.deletionTimestamp) continue;
        try {
          await store.delete(namespace, object.metadata.name ?? '', { propagationPolicy: 'Background', gracePeriodSeconds: 0 });
        } catch (err) {
          if (!(isStatusError(err) && err.code === 404)) throw err;
        }
      }
    }
    return remaining;
  }
}
