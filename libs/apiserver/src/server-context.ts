// ServerContext is what every stage of the API server shares: the served catalog, the stores,
// the clock, feature gates and server options.
import { Clock, LinkState, unwatchedLink } from '@plinth/machinery';
import { CurrentRevisionReader, ObjectStore } from '@plinth/storage';
import { resourcePrefix, ResourceCatalog, ResourceDefinition, ResourceStore } from '@plinth/registry';
import { AuthContext } from './auth/filter';
import { cacheCatchUpMs, ReadBound, sharedCatchUpMs } from './cache/read-bound';
import { RevisionTrackingStore } from './cache/revision-tracking-store';
import { WatchCache } from './cache/watch-cache';
import type { WatchTermination } from './http/lifecycle';

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export interface ServerOptions {
  // aliases serves every *.k8s.io group as an alias of its *.platform.io twin.
  aliases: boolean;
  // minRequestTimeoutSeconds bounds watches without timeoutSeconds (randomized up to 2x).
  minRequestTimeoutSeconds: number;
  version: VersionInfo;
  // watchCache serves reads from per-resource watch caches.
  watchCache: boolean;
  // watchCacheSize caps how many recent events each watch cache keeps for watches.
  watchCacheSize?: number;
  // deleteCollectionWorkers is how many deletes a deletecollection runs at once (1 when absent).
  deleteCollectionWorkers?: number;
  // sharedStorage says that other API servers write to the same storage (the gateway behind a
  // storage service, of which the chart may run replicas): a consistent read then waits until
  // the cache has seen storage's current revision, not only this server's own writes.
  sharedStorage?: boolean;
}

// ServiceAccountTokenSigning is what TokenRequest signs with (--service-account-issuer,
// --service-account-signing-key-file, --api-audiences).
export interface ServiceAccountTokenSigning {
  issuer: string;
  privateKey: string;
  apiAudiences: string[];
}

export type ConsistentReadSource = 'cache' | 'storage';

export class ServerContext {
  serviceAccountTokens: ServiceAccountTokenSigning | null = null;
  // storageLink hears how the watch caches' and controllers' reads of storage fare.
  storageLink: LinkState = unwatchedLink('storage');
  // watcherTerminated hears of each watch ended because its client did not keep up, with the
  // resource named as apiserver_terminated_watchers_total names it ("pods", "deployments.apps").
  watcherTerminated: (resource: string) => void = () => undefined;
  // consistentRead hears of each consistent read a watch cache could serve, and whether it did
  // or storage served it (the cache had not caught up, or storage's revision could not be read).
  consistentRead: (resource: string, source: ConsistentReadSource) => void = () => undefined;

  private readonly stores = new Map<ResourceDefinition, ResourceStore>();
  private readonly caches = new Map<ResourceDefinition, WatchCache>();
  private readonly stopHooks: (() => void)[] = [];
  private readonly currentRevision: CurrentRevisionReader;
  private watchTermination: WatchTermination = { ended: new AbortController().signal, onEnded: () => () => undefined, watching: () => undefined, released: () => Promise.resolve() };
  readonly storage: RevisionTrackingStore;

  constructor(
    readonly catalog: ResourceCatalog,
    storage: ObjectStore,
    readonly clock: Clock,
    readonly featureGates: ReadonlyMap<string, boolean>,
    readonly options: ServerOptions,
    // auth is absent only in unit tests of the pipeline; servers always authenticate.
    readonly auth: AuthContext | null = null,
  ) {
    this.storage = new RevisionTrackingStore(storage);
    this.currentRevision = new CurrentRevisionReader(() => this.storage.currentRevision());
  }

  // cacheFor returns the started watch cache of a resource, or null when caching is off.
  cacheFor(def: ResourceDefinition): WatchCache | null {
    if (!this.options.watchCache || def.virtual) return null;
    let cache = this.caches.get(def);
    if (!cache) {
      cache = new WatchCache(this.storeFor(def), this.clock, this.storageLink, { windowSize: this.options.watchCacheSize });
      this.caches.set(def, cache);
      cache.start();
    }
    return cache;
  }

  // lastWrittenRevision is the newest revision this server wrote for a resource: what a read
  // from its cache must have seen.
  lastWrittenRevision(def: ResourceDefinition): number {
    return this.storage.lastWrittenRevision(resourcePrefix(def));
  }

  // ownWritesBound is what a cached read that may lag other API servers (admission's informer
  // reads, as kube-apiserver's plugins read their informers) must see: this server's writes.
  ownWritesBound(def: ResourceDefinition): ReadBound {
    return { revision: this.lastWrittenRevision(def), waitMs: cacheCatchUpMs };
  }

  // readBound is what a cached read of a resource at resourceVersion (requested, parsed) must
  // see. A client's revision ("0" or N, not older than) and this server's own last write are
  // waited for as long as a cache takes to hear of them. A consistent read (resourceVersion
  // "") must see every write finished before it, as kube-apiserver's read from etcd does: with
  // one API server over the store that is its own last write; with storage shared by other
  // API servers it is storage's current revision, read for it. Null: that read failed, and
  // storage serves the read (and answers for itself).
  async readBound(def: ResourceDefinition, resourceVersion: string, requested: number): Promise<ReadBound | null> {
    const own = Math.max(requested, this.lastWrittenRevision(def));
    if (resourceVersion !== '' || !this.options.sharedStorage) return { revision: own, waitMs: cacheCatchUpMs };
    try {
      return { revision: Math.max(own, await this.currentRevision.read()), waitMs: sharedCatchUpMs };
    } catch {
      return null;
    }
  }

  // countConsistentRead counts a read that a watch cache could serve, if it is a consistent one
  // (resourceVersion "").
  countConsistentRead(def: ResourceDefinition, resourceVersion: string, source: ConsistentReadSource): void {
    if (resourceVersion === '') this.consistentRead(groupResource(def), source);
  }

  countTerminatedWatcher(def: ResourceDefinition): void {
    this.watcherTerminated(groupResource(def));
  }

  stopCaches(): void {
    for (const stop of this.stopHooks.splice(0)) stop();
    for (const cache of this.caches.values()) cache.stop();
    this.caches.clear();
  }

  // watches is the shutdown's hold on open watches: they end at an event boundary when it says.
  get watches(): WatchTermination {
    return this.watchTermination;
  }

  endWatchesWith(termination: WatchTermination): void {
    this.watchTermination = termination;
  }

  // onStop registers work to stop with the server (the CRD controller).
  onStop(stop: () => void): void {
    this.stopHooks.push(stop);
  }

  // forget drops the store and watch cache of a definition no longer served (a custom
  // resource whose definition changed or went away).
  forget(def: ResourceDefinition): void {
    this.caches.get(def)?.stop();
    this.caches.delete(def);
    this.stores.delete(def);
  }

  storeFor(def: ResourceDefinition): ResourceStore {
    let store = this.stores.get(def);
    if (!store) {
      store = new ResourceStore(def, this.storage, this.clock, this.featureGates);
      this.stores.set(def, store);
    }
    return store;
  }

  gate(name: string): boolean {
    return this.featureGates.get(name) ?? false;
  }
}

// groupResource names a resource as kube-apiserver's metrics do: "pods", "deployments.apps".
export function groupResource(def: ResourceDefinition): string {
  return def.group ? `${def.resource}.${def.group}` : def.resource;
}

export const defaultVersion: VersionInfo = {
  major: '1',
  minor: '28',
  gitVersion: 'v1.28.0-plinth',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-22T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};
