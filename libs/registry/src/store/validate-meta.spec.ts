import { KubeObject } from '@plinth/api';
import { leaseDefinition } from '../resources/coordination/leases';
import { validateObjectMetaUpdate } from './validate-meta';

function lease(finalizers: string[], deleting: boolean): KubeObject {
  return { metadata: { name: 'l1', namespace: 'ns', finalizers, ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) } };
}

describe('validateObjectMetaUpdate', () => {
  it('refuses new finalizers on an object being deleted, sorted as a Go []string, once per ValidateObjectMetaAccessorUpdate run', () => {
    const errs = validateObjectMetaUpdate(lease(['example.com/hold', 'example.com/z', 'example.com/more'], true), lease(['example.com/hold'], true), leaseDefinition).map(String);
    const refusal = 'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more", "example.com/z"}';
    expect(errs).toEqual([refusal, refusal]);
  });

  it('lets finalizers be added before deletion and removed during it', () => {
    expect(validateObjectMetaUpdate(lease(['example.com/hold', 'example.com/more'], false), lease(['example.com/hold'], false), leaseDefinition)).toEqual([]);
    expect(validateObjectMetaUpdate(lease([], true), lease(['example.com/hold'], true), leaseDefinition)).toEqual([]);
  });
});
