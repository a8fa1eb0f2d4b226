// Admission that the API server itself enforces before storage: namespace lifecycle (objects
// go only into namespaces that exist and are not terminating; the immortal namespaces cannot
// be deleted), after plugin/pkg/admission/namespace/lifecycle; RBAC escalation checks; and the
// default pod plugins ServiceAccount, Priority, DefaultTolerationSeconds and RuntimeClass.
import { KubeObject } from '@plinth/api';
import { forbidden, goQuote, internalError, isStatusError, notFound, StatusError } from '@plinth/machinery';
import {
  addDefaultTolerations,
  admitPriority,
  admitRuntimeClass,
  copyImagePullSecrets,
  defaultServiceAccount,
  defaultServiceAccountName,
  isMirrorPod,
  keepPriority,
  limitSecretReferences,
  mountServiceAccountToken,
  ResourceDefinition,
  ServiceAccount,
  shouldAutomount,
  validateMirrorPod,
} from '@plinth/registry';
import { RequestScope } from './scope';

export const immortalNamespaces = new Set(['default', 'kube-system', 'kube-public']);

export async function admitNamespacedCreate(scope: RequestScope, name: string): Promise<void> {
  if (!scope.def.namespaced || scope.def.virtual) return;
  const namespace = scope.info.namespace;
  const namespaces = scope.server.catalog.lookup('', 'v1', 'namespaces');
  if (!namespaces) return;
  const ns = await readNamespace(scope, namespaces, namespace);
  if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
  const phase = (ns.status as { phase?: string } | undefined)?.phase;
  if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
    throw namespaceTerminating(scope, name, namespace);
  }
}

// readNamespace reads from the namespaces' watch cache when it has caught up, else storage.
async function readNamespace(scope: RequestScope, namespaces: ResourceDefinition, name: string): Promise<KubeObject | undefined> {
  const cache = scope.server.cacheFor(namespaces);
  if (cache) {
    const cached = await cache.get(undefined, name, scope.server.ownWritesBound(namespaces));
    if (cached !== null) return cached;
  }
  try {
    return await scope.server.storeFor(namespaces).get(undefined, name);
  } catch (err) {
    if (isStatusError(err) && err.code === 404) return undefined;
    throw err;
  }
}

function namespaceTerminating(scope: RequestScope, name: string, namespace: string): StatusError {
  const err = forbidden(scope.store.qualifiedResource, name, `unable to create new content in namespace ${namespace} because it is being terminated`);
  err.errStatus.details = {
    ...err.errStatus.details,
    causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
  };
  return err;
}

export function admitDelete(scope: RequestScope): void {
  if (scope.def.group === '' && scope.def.resource === 'namespaces' && immortalNamespaces.has(scope.info.name)) {
    throw forbidden(scope.store.qualifiedResource, scope.info.name, 'this namespace may not be deleted');
  }
}

const rbacKinds = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

// admitRbacWrite applies RBAC escalation prevention to a write of a role or binding.
export async function admitRbacWrite(scope: RequestScope, object: KubeObject, old: KubeObject | null): Promise<void> {
  if (scope.def.group !== 'rbac.authorization.platform.io' || !rbacKinds.has(scope.def.kind)) return;
  const authorizer = scope.server.auth?.authorizer;
  if (!authorizer) return;
  let refused: StatusError | null;
  try {
    refused = await authorizer.checkRbacWrite(scope.def.kind, scope.user, object, old, scope.info.namespace, scope.info.name);
  } catch (err) {
    // The authz service out of reach is an expected failure (500), not a fault of the server.
    throw isStatusError(err) ? err : internalError(err instanceof Error ? err.message : String(err));
  }
  if (refused) throw refused;
}

// admitPod runs the default pod plugins on a write of a pod (not of its subresources), in
// kube-apiserver's order: ServiceAccount, Priority, DefaultTolerationSeconds, RuntimeClass.
// ServiceAccount, Priority and RuntimeClass act on create; on update the stored priority
// carries over.
export async function admitPod(scope: RequestScope, pod: KubeObject, old: KubeObject | null): Promise<void> {
  if (scope.def.group !== '' || scope.def.resource !== 'pods' || scope.info.subresource !== '') return;
  if (old) {
    keepPriority(pod, old);
    addDefaultTolerations(pod);
    return;
  }
  await admitServiceAccount(scope, pod);
  const priorityRefusal = admitPriority(pod);
  if (priorityRefusal) throw podForbidden(scope, pod, priorityRefusal);
  addDefaultTolerations(pod);
  const refusal = admitRuntimeClass(pod, await runtimeClassOf(scope, pod));
  if (refusal) throw podForbidden(scope, pod, refusal);
}

// admitServiceAccount is the ServiceAccount plugin on a new pod (its admit and validate parts):
// the pod runs as "default" unless it names an account, which must exist; unless the pod or the
// account opts out, the account's API token is mounted into every container; the account's
// image pull secrets go to a pod without any. Mirror pods are left as they are, but may
// reference neither accounts nor secrets.
async function admitServiceAccount(scope: RequestScope, pod: KubeObject): Promise<void> {
  if (isMirrorPod(pod)) {
    const refusal = validateMirrorPod(pod);
    if (refusal) throw podForbidden(scope, pod, refusal);
    return;
  }
  const name = defaultServiceAccount(pod);
  const account = await serviceAccountOf(scope, pod, name);
  if (shouldAutomount(account, pod)) mountServiceAccountToken(pod);
  copyImagePullSecrets(pod, account);
  const refusal = limitSecretReferences(account, pod);
  if (refusal) throw podForbidden(scope, pod, refusal);
}

// serviceAccountLookups is how often the plugin reads the default account live before it gives
// up (the service-account controller creates it just after its namespace); other accounts are
// read once. The pause between reads is drawn once, between 100 and 200 ms.
const defaultServiceAccountLookups = 10;

// serviceAccountOf is the plugin's getServiceAccount: the watch cache first, then live reads.
async function serviceAccountOf(scope: RequestScope, pod: KubeObject, name: string): Promise<ServiceAccount> {
  const namespace = scope.info.namespace;
  const serviceAccounts = scope.server.catalog.lookup('', 'v1', 'serviceaccounts');
  if (serviceAccounts) {
    const cache = scope.server.cacheFor(serviceAccounts);
    const cached = cache ? await cache.get(namespace, name, scope.server.ownWritesBound(serviceAccounts)) : null;
    if (cached) return cached as ServiceAccount;
    const attempts = name === defaultServiceAccountName ? defaultServiceAccountLookups : 1;
    const pauseMs = 100 + Math.floor(Math.random() * 100);
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      try {
        return (await scope.server.storeFor(serviceAccounts).get(namespace, name)) as ServiceAccount;
      } catch (err) {
        if (!isStatusError(err) || err.code !== 404) throw err;
      }
    }
  }
  throw podForbidden(scope, pod, `error looking up service account ${namespace}/${name}: serviceaccount ${goQuote(name)} not found`);
}

async function runtimeClassOf(scope: RequestScope, pod: KubeObject): Promise<KubeObject | null> {
  const name = (pod.spec as { runtimeClassName?: unknown } | undefined)?.runtimeClassName;
  if (typeof name !== 'string' || name === '') return null;
  const runtimeClasses = scope.server.catalog.lookup('node.platform.io', 'v1', 'runtimeclasses');
  try {
    if (runtimeClasses) return await scope.server.storeFor(runtimeClasses).get(undefined, name);
  } catch (err) {
    if (!isStatusError(err) || err.code !== 404) throw err;
  }
  throw podForbidden(scope, pod, `pod rejected: RuntimeClass ${goQuote(name)} not found`);
}

// podForbidden is admission.NewForbidden: the pod is named by its name, else its generateName.
function podForbidden(scope: RequestScope, pod: KubeObject, reason: string): StatusError {
  return forbidden(scope.store.qualifiedResource, pod.metadata.name || pod.metadata.generateName || 'Unknown', reason);
}
