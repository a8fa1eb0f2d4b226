// NodeSimulator plays N kubelets and a scheduler against the API, so that pods run without
// containers: it registers Ready nodes, binds pending pods to nodes that fit (pods/binding),
// moves bound pods through their phases (pods/status) as their annotations say, and confirms
// deletions (delete with grace 0), like a kubelet does.
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath, runWorkers, WorkQueue } from '@plinth/client';
import { Clock, isStatusError } from '@plinth/machinery';
import { chooseNode, nextPodStatus, simulatedNode } from '@plinth/node-simulator';

export interface NodeSimulatorOptions {
  nodes: number;
  // scheduler binds pods (as kube-scheduler does, with its own client); the kubelets' client
  // when absent.
  scheduler?: ApiClient;
  namePrefix?: string;
  onError?: (err: unknown) => void;
}

const nodesPath = resourcePath({ group: '', version: 'v1', resource: 'nodes' });
const podsPath = resourcePath({ group: '', version: 'v1', resource: 'pods' });

export class NodeSimulator {
  private readonly nodes: Informer;
  private readonly pods: Informer;
  private readonly queue: WorkQueue;
  private readonly names: string[];
  private running: Promise<void> | null = null;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly options: NodeSimulatorOptions,
  ) {
    const onError = options.onError ?? (() => undefined);
    this.names = Array.from({ length: options.nodes }, (_, i) => `${options.namePrefix ?? 'sim-node'}-${i}`);
    this.nodes = new Informer(client, nodesPath, clock, {}, onError);
    this.pods = new Informer(client, podsPath, clock, {}, onError);
    this.queue = new WorkQueue(clock, { name: 'node_simulator' });
    this.pods.addHandlers({ onAdd: (p) => this.queue.add(objectKey(p)), onUpdate: (p) => this.queue.add(objectKey(p)) });
    this.nodes.addHandlers({ onAdd: () => this.requeuePending(), onUpdate: () => this.requeuePending() });
  }

  async start(): Promise<void> {
    await this.registerNodes();
    this.nodes.start();
    this.pods.start();
    await Promise.all([this.nodes.hasSynced(), this.pods.hasSynced()]);
    this.running = runWorkers(this.queue, 4, (key) => this.sync(key), (_key, err) => this.options.onError?.(err));
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    this.nodes.stop();
    this.pods.stop();
    await this.running;
  }

  private async registerNodes(): Promise<void> {
    const now = new Date(this.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    for (const name of this.names) {
      try {
        await this.client.create(nodesPath, simulatedNode(name, now));
      } catch (err) {
        if (!(isStatusError(err) && err.code === 409)) throw err;
      }
    }
  }

  private requeuePending(): void {
    for (const pod of this.pods.list()) if (!(pod.spec as { nodeName?: string } | undefined)?.nodeName) this.queue.add(objectKey(pod));
  }

  private async sync(key: string): Promise<void> {
    const pod = this.pods.get(key);
    if (!pod) return;
    const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    if (!nodeName) return this.schedule(pod);
    if (!this.names.includes(nodeName)) return;
    const path = resourcePath({ group: '', version: 'v1', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name });
    if (pod.metadata.deletionTimestamp) {
      await this.ignoreMissing(this.client.delete(path, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } }));
      return;
    }
    const node = this.nodes.get(nodeName);
    const nodeIP = ((node?.status as { addresses?: { type: string; address: string }[] } | undefined)?.addresses ?? []).find((a) => a.type === 'InternalIP')?.address ?? '';
    const progress = nextPodStatus(pod, nodeIP, this.clock.now());
    if (progress.status) {
      try {
        await this.client.update(`${path}/status`, { ...pod, status: { ...(pod.status as object), ...progress.status } });
      } catch (err) {
        if (isStatusError(err) && err.code === 404) return;
        // Someone else wrote the pod since the informer saw it: look again shortly.
        if (isStatusError(err) && err.code === 409) return this.queue.addAfter(key, 50);
        throw err;
      }
    }
    if (progress.recheckAfterMs !== null) this.queue.addAfter(key, progress.recheckAfterMs);
  }

  private async schedule(pod: KubeObject): Promise<void> {
    if (pod.metadata.deletionTimestamp) return;
    const load = new Map<string, number>();
    for (const p of this.pods.list()) {
      const node = (p.spec as { nodeName?: string } | undefined)?.nodeName;
      if (node) load.set(node, (load.get(node) ?? 0) + 1);
    }
    const ours = this.nodes.list().filter((n) => this.names.includes(n.metadata.name ?? ''));
    const target = chooseNode(pod, ours, load);
    if (!target) return;
    const path = resourcePath({ group: '', version: 'v1', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name, subresource: 'binding' });
    try {
      await (this.options.scheduler ?? this.client).create(path, { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name }, target: { apiVersion: 'v1', kind: 'Node', name: target } });
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 409 || err.code === 404))) throw err;
    }
  }

  private async ignoreMissing(call: Promise<unknown>): Promise<void> {
    try {
      await call;
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}
