// DELETE of one object. An object held by finalizers (or a grace period) gets its
// deletionTimestamp and comes back as it now is; an object removed at once answers a Success
// Status (or the object, for the types that return it).
import { admitDelete } from '../admission';
import { parseDeleteOptions, warnOfDefaultOrphaning } from '../delete-options';
import { writeAny, writeResult } from '../output';
import { namespaceOf, RequestScope } from '../scope';

export async function deleteResource(scope: RequestScope): Promise<void> {
  const options = await parseDeleteOptions(scope);
  admitDelete(scope);
  warnOfDefaultOrphaning(scope, options);
  const result = await scope.store.delete(namespaceOf(scope), scope.info.name, options);
  if (!result.deleted || scope.def.deleteReturnsObject) {
    writeResult(scope, 200, result.object);
    return;
  }
  writeAny(scope, 200, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: {
      name: scope.info.name,
      ...(scope.def.group ? { group: scope.clientGroup } : {}),
      kind: scope.def.resource,
      uid: result.object.metadata.uid,
    },
  });
}
