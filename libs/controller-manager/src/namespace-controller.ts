// NamespaceController empties terminating namespaces through the API, as Kubernetes' namespace
// controller (pkg/controller/namespace, deletion/namespaced_resources_deleter.go) does: for a
// namespace whose deletion started it marks the phase Terminating, discovers every namespaced
// resource that supports delete (/api and /apis, custom resources included), deletes each
// collection (or each object when deletecollection is not served), records what is left in the
// namespace's status conditions, and once nothing is left removes the "kubernetes" finalizer
// through namespaces/{name}/finalize. While content remains it looks again later. What the
// content left says is decided by @plinth/controllers (leftoverOutcome, failedConditions, ...).
import { KubeList, KubeObject } from '@plinth/api';
import { ApiClient, resourcePath } from '@plinth/client';
import {
  DeletionOutcome,
  failedConditions,
  finalizedFinalizers,
  leftoverOutcome,
  NamespaceCondition,
  podsTerminationEstimate,
  recheckAfterMs,
  ResourceOutcome,
  updateConditions,
} from '@plinth/controllers';
import { Clock, isStatusError, rfc3339 } from '@plinth/machinery';
import { Controller, ControllerOptions, ControllerRunner } from './controller-runner';
import { DiscoveredResource, groupDiscoveryFailedMessage, serverPreferredResources } from './discovery';

export const namespaceFinalizer = 'kubernetes';

// namespaceDeletionGracePeriodMs delays the work on a namespace whose deletion was just seen, so
// that last-minute creations in it are seen too (namespaceDeletionGracePeriod, 5 s).
export const namespaceDeletionGracePeriodMs = 5000;

export interface NamespaceControllerOptions extends ControllerOptions {
  deletionGracePeriodMs?: number;
  // resyncPeriodMs looks at every namespace again each period (NamespaceSyncPeriod; 0: never).
  resyncPeriodMs?: number;
}

interface NamespaceObject extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

// ResourcesRemaining says content is still going away.
class ResourcesRemaining extends Error {
  constructor(readonly estimateSeconds: number) {
    super(`some content remains in the namespace, estimate ${estimateSeconds} seconds before it is removed`);
  }
}

const namespacesPath = resourcePath({ group: '', version: 'v1', resource: 'namespaces' });

export class NamespaceController implements Controller {
  private readonly runner: ControllerRunner;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    options: NamespaceControllerOptions = {},
  ) {
    const gracePeriodMs = options.deletionGracePeriodMs ?? namespaceDeletionGracePeriodMs;
    // The namespace controller's rate limiter caps its back-off at 60 s.
    const runner = (this.runner = new ControllerRunner(client, clock, {
      queue: { name: 'namespace', baseDelayMs: 5, maxDelayMs: 60 * 1000 },
      workers: options.workers ?? 10,
      onError: options.onError,
    }));
    const enqueue = (ns: KubeObject) => {
      if (ns.metadata.deletionTimestamp) runner.queue.addAfter(ns.metadata.name ?? '', gracePeriodMs);
    };
    runner.watch(namespacesPath, { onAdd: enqueue, onUpdate: enqueue }, { resyncPeriodMs: options.resyncPeriodMs });
  }

  start(): Promise<void> {
    return this.runner.run((name) => this.sync(name));
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private async sync(name: string): Promise<void> {
    try {
      await this.delete(name);
    } catch (err) {
      if (!(err instanceof ResourcesRemaining)) throw err;
      this.runner.queue.addAfter(name, recheckAfterMs(err.estimateSeconds));
    }
  }

  // delete is namespacedResourcesDeleter.Delete.
  private async delete(name: string): Promise<void> {
    let namespace = await this.getNamespace(name);
    if (!namespace?.metadata.deletionTimestamp) return;
    namespace = await this.retryOnConflict(namespace, (ns) => this.markTerminating(ns));
    if (!namespace?.metadata.deletionTimestamp || !(namespace.spec?.finalizers ?? []).includes(namespaceFinalizer)) return;
    const estimate = await this.deleteAllContent(namespace);
    if (estimate > 0) throw new ResourcesRemaining(estimate);
    await this.retryOnConflict(namespace, (ns) => this.finalize(ns));
  }

  private async getNamespace(name: string): Promise<NamespaceObject | null> {
    try {
      return await this.client.get<NamespaceObject>(`${namespacesPath}/${name}`);
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return null;
      throw err;
    }
  }

  // retryOnConflict runs an update, reading the namespace again after a conflict.
  private async retryOnConflict(namespace: NamespaceObject, update: (ns: NamespaceObject) => Promise<NamespaceObject | null>): Promise<NamespaceObject | null> {
    let current: NamespaceObject | null = namespace;
    for (;;) {
      try {
        return await update(current);
      } catch (err) {
        if (!(isStatusError(err) && err.code === 409)) throw err;
        current = await this.getNamespace(namespace.metadata.name ?? '');
        if (!current) return null;
      }
    }
  }

  private async markTerminating(namespace: NamespaceObject): Promise<NamespaceObject> {
    if (namespace.status?.phase === 'Terminating') return namespace;
    return this.client.update<NamespaceObject>(`${namespacesPath}/${namespace.metadata.name}/status`, { ...namespace, status: { ...namespace.status, phase: 'Terminating' } });
  }

  private async finalize(namespace: NamespaceObject): Promise<NamespaceObject | null> {
    const finalizers = finalizedFinalizers(namespace.spec?.finalizers ?? [], namespaceFinalizer);
    try {
      return await this.client.update<NamespaceObject>(`${namespacesPath}/${namespace.metadata.name}/finalize`, { ...namespace, spec: { ...namespace.spec, finalizers } });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return null;
      throw err;
    }
  }

  // deleteAllContent deletes what the namespace holds, records the outcome in its conditions,
  // and returns how many seconds the remaining content is estimated to take.
  private async deleteAllContent(namespace: NamespaceObject): Promise<number> {
    const name = namespace.metadata.name ?? '';
    const deletedAt = Date.parse(namespace.metadata.deletionTimestamp ?? '');
    const outcome: DeletionOutcome = { deleteErrors: [], remaining: new Map(), finalizers: new Map() };
    const errors: string[] = [];
    let resources: DiscoveredResource[] = [];
    try {
      const discovery = await serverPreferredResources(this.client);
      resources = discovery.resources;
      if (discovery.failedGroups.size > 0) {
        const message = groupDiscoveryFailedMessage(discovery.failedGroups);
        outcome.discoveryError = { message, failedGroups: discovery.failedGroups.size };
        errors.push(message);
      }
    } catch (err) {
      const message = (err as Error).message;
      outcome.discoveryError = { message, failedGroups: 0 };
      errors.push(message);
    }
    let estimate = 0;
    for (const resource of resources.filter((r) => r.namespaced && r.verbs.includes('delete'))) {
      const result = await this.deleteAllContentFor(resource, name, deletedAt);
      if (result.error) {
        errors.push(result.error);
        outcome.deleteErrors.push(result.error);
      }
      estimate = Math.max(estimate, result.estimate);
      if (result.remaining > 0) {
        const key = `${resource.resource}.${resource.group}`;
        outcome.remaining.set(key, (outcome.remaining.get(key) ?? 0) + result.remaining);
        for (const [finalizer, n] of result.finalizers) outcome.finalizers.set(finalizer, (outcome.finalizers.get(finalizer) ?? 0) + n);
      }
    }
    await this.recordConditions(namespace, outcome);
    if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    return estimate;
  }

  private async recordConditions(namespace: NamespaceObject, outcome: DeletionOutcome): Promise<void> {
    const now = rfc3339(this.clock.now());
    const { conditions, changed } = updateConditions(namespace.status?.conditions ?? [], failedConditions(outcome, now), now);
    if (!changed) return;
    try {
      const updated = await this.client.update<NamespaceObject>(`${namespacesPath}/${namespace.metadata.name}/status`, { ...namespace, status: { ...namespace.status, conditions } });
      Object.assign(namespace, updated);
    } catch (err) {
      this.runner.onError(new Error(`couldn't update status condition for namespace "${namespace.metadata.name}": ${(err as Error).message}`));
    }
  }

  // deleteAllContentFor is deleteAllContentForGroupVersionResource.
  private async deleteAllContentFor(resource: DiscoveredResource, namespace: string, deletedAt: number): Promise<ResourceOutcome> {
    const path = resourcePath({ group: resource.group, version: resource.version, resource: resource.resource, namespace });
    let estimate = 0;
    try {
      if (resource.group === '' && resource.resource === 'pods') estimate = podsTerminationEstimate((await this.client.list<KubeObject>(path)).items, deletedAt, this.clock.now());
      if (!(resource.verbs.includes('deletecollection') && (await this.deleteCollection(path)))) await this.deleteEachItem(resource, path);
      if (!resource.verbs.includes('list')) return { estimate, remaining: 0, finalizers: new Map() };
      return leftoverOutcome(resource, namespace, (await this.client.list<KubeObject>(path)).items, estimate);
    } catch (err) {
      return { estimate, remaining: 0, finalizers: new Map(), error: (err as Error).message };
    }
  }

  // deleteCollection deletes the whole collection in the background; false when the server
  // does not support it.
  private async deleteCollection(path: string): Promise<boolean> {
    try {
      await this.client.delete(path, { propagationPolicy: 'Background' });
      return true;
    } catch (err) {
      if (isStatusError(err) && (err.code === 404 || err.code === 405)) return false;
      throw err;
    }
  }

  private async deleteEachItem(resource: DiscoveredResource, path: string): Promise<void> {
    if (!resource.verbs.includes('list')) return;
    const list: KubeList<KubeObject> = await this.client.list<KubeObject>(path);
    for (const item of list.items) {
      try {
        await this.client.delete(`${path}/${item.metadata.name}`, { propagationPolicy: 'Background' });
      } catch (err) {
        if (!(isStatusError(err) && (err.code === 404 || err.code === 405))) throw err;
      }
    }
  }
}
