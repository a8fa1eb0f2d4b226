// NodeSimulator plays N kubelets and a scheduler against the API, so that pods run without
// containers: it registers Ready nodes, binds pending pods to nodes that fit (pods/binding),
// moves bound pods through their phases (pods/status) as their annotations say, and confirms
// deletions (delete with grace 0), like a kubelet does.
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath } from '@plinth/client';
import { Clock, isStatusError, rfc3339 } from '@plinth/machinery';
import { chooseNode, nextPodStatus, simulatedNode, withoutNotReadyTaint } from '@plinth/node-simulator';
import { Controller, ControllerRunner, tolerating } from './controller-runner';

export interface NodeSimulatorOptions {
  nodes: number;
  // scheduler binds pods (as kube-scheduler does, with its own client); the kubelets' client
  // when absent.
  scheduler?: ApiClient;
  namePrefix?: string;
  // workers is how many pods are looked at once.
  workers?: number;
  onError?: (err: unknown) => void;
}

const nodesPath = resourcePath({ group: '', version: 'v1', resource: 'nodes' });
const podsPath = resourcePath({ group: '', version: 'v1', resource: 'pods' });

export class NodeSimulator implements Controller {
  private readonly runner: ControllerRunner;
  private readonly nodes: Informer;
  private readonly pods: Informer;
  private readonly names: string[];

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly options: NodeSimulatorOptions,
  ) {
    this.names = Array.from({ length: options.nodes }, (_, i) => `${options.namePrefix ?? 'sim-node'}-${i}`);
    const runner = (this.runner = new ControllerRunner(client, clock, { queue: { name: 'node_simulator' }, workers: options.workers ?? 4, onError: options.onError }));
    this.nodes = runner.watch(nodesPath, { onAdd: () => this.requeuePending(), onUpdate: () => this.requeuePending() });
    this.pods = runner.watch(podsPath, { onAdd: runner.enqueue(objectKey), onUpdate: runner.enqueue(objectKey) });
  }

  async start(): Promise<void> {
    await this.registerNodes();
    await this.runner.run((key) => this.sync(key));
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private async registerNodes(): Promise<void> {
    const now = rfc3339(this.clock.now());
    for (const name of this.names) {
      await tolerating(this.client.create(nodesPath, simulatedNode(name, now)), [409]);
      await this.markReady(name);
    }
  }

  // markReady lifts the not-ready taint the API server gives a new Node, as the node lifecycle
  // controller does once the kubelet reports Ready (the simulated kubelets always do).
  private async markReady(name: string): Promise<void> {
    const path = resourcePath({ group: '', version: 'v1', resource: 'nodes', name });
    for (let attempt = 0; attempt < 5; attempt++) {
      const lifted = withoutNotReadyTaint(await this.client.get(path));
      if (!lifted) return;
      try {
        await this.client.update(path, lifted);
        return;
      } catch (err) {
        if (!isStatusError(err) || err.code !== 409) throw err;
      }
    }
  }

  private requeuePending(): void {
    for (const pod of this.pods.list()) if (!(pod.spec as { nodeName?: string } | undefined)?.nodeName) this.runner.queue.add(objectKey(pod));
  }

  private async sync(key: string): Promise<void> {
    const pod = this.pods.get(key);
    if (!pod) return;
    const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    if (!nodeName) return this.schedule(pod);
    if (!this.names.includes(nodeName)) return;
    const path = resourcePath({ group: '', version: 'v1', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name });
    if (pod.metadata.deletionTimestamp) {
      await tolerating(this.client.delete(path, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } }), [404, 409]);
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
        if (isStatusError(err) && err.code === 409) return this.runner.queue.addAfter(key, 50);
        throw err;
      }
    }
    if (progress.recheckAfterMs !== null) this.runner.queue.addAfter(key, progress.recheckAfterMs);
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
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name }, target: { apiVersion: 'v1', kind: 'Node', name: target } };
    await tolerating((this.options.scheduler ?? this.client).create(path, binding), [404, 409]);
  }
}
