// ServiceAccountsController makes sure every active namespace has the "default" ServiceAccount
// (serviceAccountsToCreate of @plinth/controllers), as Kubernetes' service-account controller
// (pkg/controller/serviceaccount/serviceaccounts_controller.go, v1.28) does: it watches
// namespaces and service accounts, looks at a namespace when it is added or updated and when
// one of its service accounts is deleted, and creates the accounts the namespace lacks.
// As in kube-controller-manager, the informers list and watch with the controller manager's own
// credentials (its shared informers), while the accounts are created with the controller's.
import { ApiClient, Informer, resourcePath } from '@plinth/client';
import { newServiceAccount, serviceAccountsToCreate } from '@plinth/controllers';
import { Clock, isStatusError, StatusError } from '@plinth/machinery';
import { Controller, ControllerOptions, ControllerRunner } from './controller-runner';

const namespaceTerminatingCause = 'NamespaceTerminating';

export interface ServiceAccountsControllerOptions extends ControllerOptions {
  // informerClient lists and watches (the controller manager's own client); the controller's
  // client when absent.
  informerClient?: ApiClient;
}

const namespacesPath = resourcePath({ group: '', version: 'v1', resource: 'namespaces' });
const serviceAccountsPath = resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts' });

export class ServiceAccountsController implements Controller {
  private readonly runner: ControllerRunner;
  private readonly namespaces: Informer;
  private readonly serviceAccounts: Informer;

  // client creates the accounts.
  constructor(
    private readonly client: ApiClient,
    clock: Clock,
    options: ServiceAccountsControllerOptions = {},
  ) {
    // kube-controller-manager runs one worker (the controller has no Concurrent*Syncs).
    const runner = (this.runner = new ControllerRunner(client, clock, { queue: { name: 'serviceaccount' }, workers: options.workers ?? 1, onError: options.onError }));
    const watch = { client: options.informerClient };
    const enqueueNamespace = runner.enqueue((ns) => ns.metadata.name ?? '');
    this.namespaces = runner.watch(namespacesPath, { onAdd: enqueueNamespace, onUpdate: enqueueNamespace }, watch);
    this.serviceAccounts = runner.watch(serviceAccountsPath, { onDelete: runner.enqueue((sa) => sa.metadata.namespace ?? '') }, watch);
  }

  start(): Promise<void> {
    return this.runner.run((name) => this.syncNamespace(name));
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private async syncNamespace(name: string): Promise<void> {
    const missing = serviceAccountsToCreate(this.namespaces.get(name), (account) => this.serviceAccounts.get(`${name}/${account}`) !== undefined);
    const failures: string[] = [];
    for (const account of missing) {
      try {
        await this.client.create(resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts', namespace: name }), newServiceAccount(name, account));
      } catch (err) {
        if (!isStatusError(err) || (err.code !== 409 && !hasCause(err, namespaceTerminatingCause))) failures.push((err as Error).message);
      }
    }
    if (failures.length > 0) throw new Error(failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`);
  }
}

function hasCause(err: StatusError, reason: string): boolean {
  return (err.errStatus?.details?.causes ?? []).some((cause) => cause.reason === reason);
}
