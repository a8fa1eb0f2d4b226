// checkName is the patch handler's checkName, for every patch type and server-side apply.
import { KubeObject } from '@plinth/api';
import { badRequest } from '@plinth/machinery';
import { namespaceOf, RequestScope } from '../scope';

// The patched object keeps the name and namespace
// of the URL (a patch that removes metadata, or replaces or deletes the whole object, does not).
export function checkName(scope: RequestScope, patched: KubeObject): void {
  const name = patched.metadata.name ?? '';
  if (name !== scope.info.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${scope.info.name})`);
  const namespace = namespaceOf(scope);
  const objectNamespace = patched.metadata.namespace ?? '';
  if (namespace && objectNamespace && objectNamespace !== namespace) {
    throw badRequest(`the namespace of the object (${objectNamespace}) does not match the namespace on the URL (${namespace})`);
  }
}
