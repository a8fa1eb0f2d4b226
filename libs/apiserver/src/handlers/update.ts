// PUT of an object or its status: a compare-and-swap on metadata.resourceVersion when given.
// Answers 200, or 201 when the type allows create-on-update and the object was missing.
import { cloneJson } from '@plinth/machinery';
import { admitNamespacedCreate, admitPod, admitRbacWrite } from '../admission';
import { decodeBody } from '../decode';
import { writeResult } from '../output';
import { fieldManagerOf, namespaceOf, RequestScope } from '../scope';
import { parseWriteOptions } from '../write-options';

export async function updateResource(scope: RequestScope): Promise<void> {
  const options = parseWriteOptions(scope.query, 'UpdateOptions');
  const object = await decodeBody(scope, 'UpdateOptions');
  const subresource = scope.info.subresource === 'status' || scope.info.subresource === 'finalize' ? scope.info.subresource : undefined;
  const result = await scope.store.update(
    namespaceOf(scope),
    scope.info.name,
    async (current) => {
      if (!current) await admitNamespacedCreate(scope, scope.info.name);
      await admitRbacWrite(scope, object, current);
      return cloneJson(object);
    },
    { dryRun: options.dryRun, subresource, fieldManager: fieldManagerOf(scope, options.fieldManager), admit: (pod, old) => admitPod(scope, pod, old) },
  );
  writeResult(scope, result.created ? 201 : 200, result.object);
}
