import { serviceAccountDefinition } from './serviceaccounts';
import { ResourceStrategy, TableDefinition } from '../../resource';
const table = serviceAccountDefinition.table as TableDefinition;

// hook returns a strategy hook the definition must have.
function hook<K extends keyof ResourceStrategy>(name: K): NonNullable<ResourceStrategy[K]> {
  const fn = serviceAccountDefinition.strategy[name];
  if (!fn) throw new Error(`missing ${String(name)}`);
  return fn as NonNullable<ResourceStrategy[K]>;
}

const ctx = { featureGates: new Map<string, boolean>(), now: Date.parse('2024-01-01T00:01:30Z') };

describe('serviceaccount definition', () => {
  it('has shortName sa and the token subresource', () => {
    expect(serviceAccountDefinition).toMatchObject({ resource: 'serviceaccounts', namespaced: true, shortNames: ['sa'], subresources: ['token'], deleteReturnsObject: true });
    expect(serviceAccountDefinition.schema.properties).toHaveProperty('automountServiceAccountToken');
  });

  it('keeps only the names of secret references', () => {
    const sa = { metadata: { name: 'default' }, secrets: [{ name: 's1', namespace: 'x', uid: 'u' }] };
    hook('prepareForCreate')(sa, ctx);
    expect(sa.secrets).toEqual([{ name: 's1' }]);
  });

  it('prints NAME SECRETS AGE', () => {
    const sa = { metadata: { name: 'default', creationTimestamp: '2024-01-01T00:00:00Z' }, secrets: [{ name: 'a' }, { name: 'b' }] };
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Secrets', 'Age']);
    expect(table.row(sa, ctx.now)).toEqual(['default', 2, '90s']);
  });
});
