// ServiceAccountsController makes sure every active namespace has the "default" ServiceAccount,
// as Kubernetes' service-account controller (pkg/controller/serviceaccount/
// serviceaccounts_controller.go, v1.28) does: it watches namespaces and service accounts, looks
// at a namespace when it is added or updated and when one of its service accounts is deleted,
// and creates the accounts the namespace lacks. Terminating namespaces are left alone.
// As in kube-controller-manager, the informers list and watch with the controller manager's own
// credentials (its shared informers), while the accounts are created with the controller's.
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, resourcePath, runWorkers, WorkQueue } from '@plinth/client';
import { Clock, isStatusError } from '@plinth/machinery';

// serviceAccountsToEnsure is DefaultServiceAccountsControllerOptions: the "default" account.
export const serviceAccountsToEnsure: readonly string[] = ['default'];
const namespaceTerminatingCause = 'NamespaceTerminating';

export interface ServiceAccountsControllerOptions {
  // workers is how many namespaces are synced at once (kube-controller-manager runs 1).
  workers?: number;
  onError?: (err: unknown) => void;
}

const namespacesPath = resourcePath({ group: '', version: 'v1', resource: 'namespaces' });
const serviceAccountsPath = resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts' });

export class ServiceAccountsController {
  private readonly namespaces: Informer;
  private readonly serviceAccounts: Informer;
  private readonly queue: WorkQueue;
  private readonly workers: number;
  private readonly onError: (err: unknown) => void;
  private running: Promise<void> | null = null;

  // client creates the accounts; informerClient lists and watches.
  constructor(
    private readonly client: ApiClient,
    informerClient: ApiClient,
    clock: Clock,
    options: ServiceAccountsControllerOptions = {},
  ) {
    this.workers = options.workers ?? 1;
    this.onError = options.onError ?? (() => undefined);
    this.queue = new WorkQueue(clock, { name: 'serviceaccount' });
    this.namespaces = new Informer(informerClient, namespacesPath, clock, {}, this.onError);
    this.serviceAccounts = new Informer(informerClient, serviceAccountsPath, clock, {}, this.onError);
    const enqueueNamespace = (ns: KubeObject) => this.queue.add(ns.metadata.name ?? '');
    this.namespaces.addHandlers({ onAdd: enqueueNamespace, onUpdate: enqueueNamespace });
    this.serviceAccounts.addHandlers({ onDelete: (sa) => this.queue.add(sa.metadata.namespace ?? '') });
  }

  async start(): Promise<void> {
    this.namespaces.start();
    this.serviceAccounts.start();
    await Promise.all([this.namespaces.hasSynced(), this.serviceAccounts.hasSynced()]);
    this.running = runWorkers(this.queue, this.workers, (name) => this.syncNamespace(name), (_name, err) => this.onError(err));
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    this.namespaces.stop();
    this.serviceAccounts.stop();
    await this.running;
  }

  // syncNamespace creates the accounts an active namespace lacks; a namespace that went away,
  // or is terminating, needs none.
  private async syncNamespace(name: string): Promise<void> {
    const namespace = this.namespaces.get(name);
    if (!namespace || (namespace.status as { phase?: string } | undefined)?.phase !== 'Active') return;
    const failures: string[] = [];
    for (const account of serviceAccountsToEnsure) {
      if (this.serviceAccounts.get(`${name}/${account}`)) continue;
      try {
        await this.client.create(resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts', namespace: name }), {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: account, namespace: name },
        });
      } catch (err) {
        if (!isStatusError(err) || (err.code !== 409 && !hasCause(err, namespaceTerminatingCause))) failures.push((err as Error).message);
      }
    }
    if (failures.length > 0) throw new Error(failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`);
  }
}

function hasCause(err: { errStatus?: { details?: { causes?: { reason?: string }[] } } }, reason: string): boolean {
  return (err.errStatus?.details?.causes ?? []).some((cause) => cause.reason === reason);
}
