// observeObjectCounts keeps apiserver_storage_objects as kube-apiserver's registry stores keep
// it (startObservingCount, every --etcd-count-metric-poll-period): at once and then every period
// it counts in storage the objects of each resource served, one resource after the other, and
// sets -1 for a resource whose count storage did not give.
import { Clock } from '@plinth/machinery';
import { Gauge } from '@plinth/metrics';
import { ResourceDefinition, resourcePrefix } from '@plinth/registry';
import { ObjectStore } from '@plinth/storage';
import { groupResource } from './server-context';

// countObjects counts the keys under a prefix with a one-item page: its remaining item count is
// what etcd's count of the range gives.
export async function countObjects(store: ObjectStore, prefix: string): Promise<number> {
  const page = await store.list({ prefix, limit: 1 });
  return page.items.length + (page.remainingItemCount ?? 0);
}

// countedResources are the stored resources among the definitions served, once each however
// many versions serve them, named as the metric names them ("pods", "deployments.apps").
export function countedResources(definitions: readonly ResourceDefinition[]): { resource: string; prefix: string }[] {
  const byPrefix = new Map<string, string>();
  for (const def of definitions) {
    if (def.virtual) continue;
    const prefix = resourcePrefix(def);
    if (!byPrefix.has(prefix)) byPrefix.set(prefix, groupResource(def));
  }
  return [...byPrefix].map(([prefix, resource]) => ({ resource, prefix }));
}

// observeObjectCounts starts the polling and returns what stops it; a period of 0 polls never.
export function observeObjectCounts(
  gauge: Gauge,
  store: ObjectStore,
  definitions: () => readonly ResourceDefinition[],
  clock: Clock,
  periodMs: number,
): () => void {
  if (periodMs <= 0) return () => undefined;
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      for (const { resource, prefix } of countedResources(definitions())) {
        gauge.labels(resource).set(await countObjects(store, prefix).catch(() => -1));
      }
    } finally {
      polling = false;
    }
  };
  void poll();
  const timer = clock.setInterval(() => void poll(), periodMs);
  return () => timer.cancel();
}
