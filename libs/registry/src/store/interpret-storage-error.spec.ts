import { StatusError } from '@plinth/machinery';
import { StorageError } from '@plinth/storage';
import { interpretStorageError } from './interpret-storage-error';

const serviceAccounts = { group: '', resource: 'serviceaccounts' };

function statusOf(err: StorageError): StatusError['errStatus'] {
  const interpreted = interpretStorageError(err, serviceAccounts, 'a');
  if (!(interpreted instanceof StatusError)) throw new Error(`not a StatusError: ${String(interpreted)}`);
  return interpreted.errStatus;
}

describe('interpretStorageError', () => {
  it('answers a storage call past its deadline as the finisher does a request whose context ended: 504 Timeout', () => {
    expect(statusOf(StorageError.timeout('no answer within 5000 ms'))).toMatchObject({
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
      details: {},
    });
  });

  it('answers a storage service that cannot be reached with 503 ServiceUnavailable, saying why', () => {
    expect(statusOf(StorageError.unreachable("10000 calls await the storage service's answers"))).toMatchObject({
      code: 503,
      reason: 'ServiceUnavailable',
      message: "storage unreachable: 10000 calls await the storage service's answers",
    });
  });
});
