import { KubeObject } from '@plinth/api';
import { newServiceAccount, serviceAccountsToCreate } from './accounts';

const namespace = (phase: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' }, status: { phase } });

describe('serviceAccountsToCreate', () => {
  it('creates the default account an active namespace lacks', () => {
    expect(serviceAccountsToCreate(namespace('Active'), () => false)).toEqual(['default']);
    expect(serviceAccountsToCreate(namespace('Active'), (name) => name === 'default')).toEqual([]);
  });

  it('leaves terminating and vanished namespaces alone', () => {
    expect(serviceAccountsToCreate(namespace('Terminating'), () => false)).toEqual([]);
    expect(serviceAccountsToCreate(undefined, () => false)).toEqual([]);
  });

  it('builds the account in its namespace', () => {
    expect(newServiceAccount('team', 'default')).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'team' } });
  });
});
