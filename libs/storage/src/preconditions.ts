// checkDeletePreconditions decides whether a delete may go ahead on the current state of a
// key. The uid is read from metadata.uid of the stored JSON object.
import { StorageError } from './errors';
import { DeletePreconditions, KeyValue } from './object-store';

export function checkDeletePreconditions(current: KeyValue, preconditions: DeletePreconditions | undefined): void {
  if (!preconditions) return;
  if (preconditions.revision !== undefined && preconditions.revision !== current.revision) {
    throw StorageError.conflict(
      current.key,
      `Precondition failed: ResourceVersion in precondition: ${preconditions.revision}, ResourceVersion in object meta: ${current.revision}`,
      current.revision,
    );
  }
  if (preconditions.uid !== undefined) {
    const uid = storedUid(current);
    if (uid !== preconditions.uid) {
      throw StorageError.conflict(
        current.key,
        `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${uid ?? ''}`,
        current.revision,
      );
    }
  }
}

function storedUid(kv: KeyValue): string | undefined {
  try {
    const object = JSON.parse(Buffer.from(kv.value).toString('utf8')) as { metadata?: { uid?: unknown } };
    return typeof object?.metadata?.uid === 'string' ? object.metadata.uid : undefined;
  } catch {
    throw StorageError.invalidObj(kv.key, 'stored value is not JSON');
  }
}
