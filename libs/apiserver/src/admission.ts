// Admission that the API server itself enforces before storage: namespace lifecycle (objects
// go only into namespaces that exist and are not terminating; the immortal namespaces cannot
// be deleted), after plugin/pkg/admission/namespace/lifecycle; RBAC escalation checks; and the
// default pod plugins DefaultTolerationSeconds, Priority and RuntimeClass.
import { KubeObject } from '@plinth/api';
import { forbidden, goQuote, isStatusError, notFound, StatusError } from '@plinth/machinery';
import { addDefaultTolerations, admitPriority, admitRuntimeClass, keepPriority, ResourceDefinition } from '@plinth/registry';
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
    const cached = await cache.get(undefined, name, scope.server.lastWrittenRevision(namespaces));
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
  const check = scope.server.auth?.authorizer.checkRbacWrite;
  if (!check) return;
  const refused = await check.call(scope.server.auth?.authorizer, scope.def.kind, scope.user, object, old, scope.info.namespace, scope.info.name);
  if (refused) throw refused;
}

// admitPod runs the default pod plugins on a write of a pod (not of its subresources), in
// kube-apiserver's order: DefaultTolerationSeconds, Priority, RuntimeClass. Priority and
// RuntimeClass act on create; on update the stored priority carries over.
export async function admitPod(scope: RequestScope, pod: KubeObject, old: KubeObject | null): Promise<void> {
  if (scope.def.group !== '' || scope.def.resource !== 'pods' || scope.info.subresource !== '') return;
  addDefaultTolerations(pod);
  if (old) {
    keepPriority(pod, old);
    return;
  }
  const refusal = admitPriority(pod) ?? admitRuntimeClass(pod, await runtimeClassOf(scope, pod));
  if (refusal) throw podForbidden(scope, pod, refusal);
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
