// POST to a collection: decode, default, admit and validate (in the store), then store unless
// dryRun. Answers 201 with the created object.
import { admitNamespacedCreate, admitPod, admitRbacWrite } from '../admission';
import { decodeBody } from '../decode';
import { writeResult } from '../output';
import { fieldManagerOf, namespaceOf, RequestScope } from '../scope';
import { parseWriteOptions } from '../write-options';

export async function createResource(scope: RequestScope): Promise<void> {
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const object = await decodeBody(scope, 'CreateOptions');
  await admitNamespacedCreate(scope, object.metadata.name ?? '');
  await admitRbacWrite(scope, object, null);
  const created = await scope.store.create(namespaceOf(scope), object, {
    dryRun: options.dryRun,
    fieldManager: fieldManagerOf(scope, options.fieldManager),
    admit: (pod, old) => admitPod(scope, pod, old),
  });
  writeResult(scope, 201, created);
}
