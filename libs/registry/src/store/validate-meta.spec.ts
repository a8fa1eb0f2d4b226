import { KubeObject } from '@plinth/api';
import { leaseDefinition } from '../resources/coordination/leases';
import { podDefinition } from '../resources/core/pods';
import { validateObjectMeta, validateObjectMetaUpdate } from './validate-meta';

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

describe('validateObjectMeta', () => {
  const qualifiedName =
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

  it('checks finalizer names as qualified names on the list path, and a name without a domain only for the core-validated groups', () => {
    const finalizers = ['hold', 'example.com/a/b'];
    expect(validateObjectMeta(lease(finalizers, false), leaseDefinition).map(String)).toEqual([`metadata.finalizers: Invalid value: "example.com/a/b": ${qualifiedName}`]);
    const pod: KubeObject = { metadata: { name: 'p1', namespace: 'ns', finalizers } };
    expect(validateObjectMeta(pod, podDefinition).map(String)).toEqual([
      `metadata.finalizers: Invalid value: "example.com/a/b": ${qualifiedName}`,
      'metadata.finalizers[0]: Invalid value: "hold": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    expect(validateObjectMeta({ metadata: { name: 'p1', namespace: 'ns', finalizers: ['kubernetes', 'orphan'] } }, podDefinition)).toEqual([]);
  });

  it('prints two controller references as Go prints them, a set *bool as an address', () => {
    const ref = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', name, uid: name, controller: true });
    const [err] = validateObjectMeta({ metadata: { name: 'l1', namespace: 'ns', ownerReferences: [ref('a'), ref('b')] } }, leaseDefinition).map(String);
    expect(err).toBe(
      'metadata.ownerReferences: Invalid value: []v1.OwnerReference{v1.OwnerReference{APIVersion:"v1", Kind:"Pod", Name:"a", UID:"a", Controller:(*bool)(0xc000010000), BlockOwnerDeletion:(*bool)(nil)}, v1.OwnerReference{APIVersion:"v1", Kind:"Pod", Name:"b", UID:"b", Controller:(*bool)(0xc000010000), BlockOwnerDeletion:(*bool)(nil)}}: Only one reference can have Controller set to true. Found "true" in references for Pod/a and Pod/b',
    );
  });
});

describe('validateObjectMetaUpdate of the deletion grace period', () => {
  it('refuses a changed deletionGracePeriodSeconds, once per ValidateObjectMetaAccessorUpdate run', () => {
    const old: KubeObject = { metadata: { name: 'l1', namespace: 'ns', deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 0, finalizers: ['example.com/hold'] } };
    const changed: KubeObject = { metadata: { ...old.metadata, deletionGracePeriodSeconds: 5 } };
    const refusal = 'metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable';
    expect(validateObjectMetaUpdate(changed, old, leaseDefinition).map(String)).toEqual([refusal, refusal]);
    expect(validateObjectMetaUpdate(old, old, leaseDefinition)).toEqual([]);
  });
});
