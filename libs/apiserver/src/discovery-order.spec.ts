import { aggregatedDiscoveryOrder, legacyDiscoveryOrder } from './discovery-order';

const group = (name: string, ...versions: string[]) => ({ group: name, versions });
const names = (groups: { group: string }[]) => groups.map((g) => g.group);

describe('discovery order', () => {
  it('lists the built-in groups by kube-apiserver 1.28 priority, whatever order they come in', () => {
    const groups = [
      group('node.platform.io', 'v1'),
      group('apiextensions.platform.io', 'v1'),
      group('batch', 'v1'),
      group('coordination.platform.io', 'v1'),
      group('admissionregistration.platform.io', 'v1'),
      group('rbac.authorization.platform.io', 'v1'),
      group('authentication.platform.io', 'v1', 'v1beta1'),
      group('apps', 'v1'),
      group('storage.platform.io', 'v1'),
      group('authorization.platform.io', 'v1'),
    ];
    const expected = [
      'apps',
      'authentication.platform.io',
      'authorization.platform.io',
      'batch',
      'rbac.authorization.platform.io',
      'storage.platform.io',
      'admissionregistration.platform.io',
      'apiextensions.platform.io',
      'coordination.platform.io',
      'node.platform.io',
    ];
    expect(names(legacyDiscoveryOrder(groups))).toEqual(expected);
    expect(names(aggregatedDiscoveryOrder(groups))).toEqual(expected);
  });

  it('puts custom resource groups after the built-in ones', () => {
    expect(names(legacyDiscoveryOrder([group('stable.example.com', 'v1'), group('node.platform.io', 'v1')]))).toEqual(['node.platform.io', 'stable.example.com']);
  });

  // Legacy discovery sorts APIServices by name (v1.b.example.com before v1beta1.a.example.com);
  // aggregated discovery sorts the groups by name.
  it('breaks ties between custom groups as each document does', () => {
    const groups = [group('a.example.com', 'v1beta1'), group('b.example.com', 'v1')];
    expect(names(legacyDiscoveryOrder(groups))).toEqual(['b.example.com', 'a.example.com']);
    expect(names(aggregatedDiscoveryOrder(groups))).toEqual(['a.example.com', 'b.example.com']);
  });
});
