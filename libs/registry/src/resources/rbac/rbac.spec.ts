import { KubeObject } from '@plinth/api';
import { Clock, isStatusError, realClock, StatusError } from '@plinth/machinery';
import { EmbeddedObjectStore } from '@plinth/storage';
import { ResourceDefinition, StrategyContext } from '../../resource';
import { ResourceStore } from '../../store/resource-store';
import { defaultTable } from '../../table';
import { clusterRoleBindingDefinition, clusterRoleDefinition, roleBindingDefinition, roleDefinition } from './index';

const now = Date.parse('2024-05-01T12:00:00Z');
const clock: Clock = { ...realClock, now: () => now };
const ctx: StrategyContext = { featureGates: new Map(), now };

function obj(kind: string, namespaced: boolean, fields: Record<string, unknown>, name = 'reader'): KubeObject {
  return {
    apiVersion: 'rbac.authorization.platform.io/v1',
    kind,
    metadata: namespaced ? { name, namespace: 'team' } : { name },
    ...fields,
  };
}

function validate(def: ResourceDefinition, object: KubeObject): string[] {
  const copy = structuredClone(object);
  def.strategy.defaults?.(copy, ctx);
  return def.strategy.validate(copy, ctx).map((e) => e.toString());
}

function store(def: ResourceDefinition): ResourceStore {
  return new ResourceStore(def, new EmbeddedObjectStore(), clock, new Map());
}

async function rejected(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

describe('RBAC definitions', () => {
  it('serve rbac.authorization.platform.io/v1 with path-segment names and create on update', () => {
    for (const [def, resource, kind, namespaced] of [
      [roleDefinition, 'roles', 'Role', true],
      [clusterRoleDefinition, 'clusterroles', 'ClusterRole', false],
      [roleBindingDefinition, 'rolebindings', 'RoleBinding', true],
      [clusterRoleBindingDefinition, 'clusterrolebindings', 'ClusterRoleBinding', false],
    ] as const) {
      expect(def).toMatchObject({
        group: 'rbac.authorization.platform.io',
        version: 'v1',
        resource,
        kind,
        listKind: `${kind}List`,
        namespaced,
        nameValidation: 'path-segment',
        allowCreateOnUpdate: true,
        hasStatus: false,
      });
      expect(def.subresources).toBeUndefined();
      expect(def.schema.properties?.status).toBeUndefined();
    }
    expect(roleBindingDefinition.schema.required).toEqual(['roleRef']);
    expect(clusterRoleDefinition.schema.properties?.aggregationRule).toBeDefined();
  });

  it('accepts names that are only valid path segments', async () => {
    const out = await store(clusterRoleDefinition).create(undefined, obj('ClusterRole', false, { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }, 'system:Reader'));
    expect(out.metadata.name).toBe('system:Reader');
    const err = await rejected(store(clusterRoleDefinition).create(undefined, obj('ClusterRole', false, {}, 'a%b')));
    expect(err.errStatus.message).toBe('ClusterRole.rbac.authorization.platform.io "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain \'%\'');
  });
});

describe('PolicyRule validation', () => {
  it('requires verbs, api groups and resources', () => {
    expect(validate(roleDefinition, obj('Role', true, { rules: [{}] }))).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
    expect(validate(roleDefinition, obj('Role', true, { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }))).toEqual([]);
  });

  it('keeps non-resource URLs out of namespaced roles and apart from resources', () => {
    expect(validate(roleDefinition, obj('Role', true, { rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] }))).toEqual([
      'rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs',
    ]);
    expect(validate(clusterRoleDefinition, obj('ClusterRole', false, { rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'], resources: ['pods'] }] }))).toEqual([
      'rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });

  it('stores a role without rules as rules: null', async () => {
    const out = await store(roleDefinition).create('team', obj('Role', true, {}));
    expect(out).toHaveProperty('rules', null);
  });

  it('gives the rules to the writer of an empty list, and to no one when they were left out', async () => {
    const fieldManager = { manager: 'writer', apiVersion: 'rbac.authorization.platform.io/v1' };
    const absent = await store(clusterRoleDefinition).create(undefined, obj('ClusterRole', false, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }), { fieldManager });
    expect(absent).toHaveProperty('rules', null);
    expect(absent.metadata.managedFields?.map((f) => f.fieldsV1)).toEqual([{ 'f:aggregationRule': { '.': {}, 'f:clusterRoleSelectors': {} } }]);
    const empty = await store(roleDefinition).create('team', obj('Role', true, { rules: [] }), { fieldManager });
    expect(empty).toHaveProperty('rules', null);
    expect(empty.metadata.managedFields?.map((f) => f.fieldsV1)).toEqual([{ 'f:rules': {} }]);
  });
});

describe('ClusterRole aggregation', () => {
  it('validates the selectors', () => {
    expect(validate(clusterRoleDefinition, obj('ClusterRole', false, { aggregationRule: {} }))).toEqual([
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
    const selectors = [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }, { matchExpressions: [{ key: 'a', operator: 'Maybe' }] }];
    expect(validate(clusterRoleDefinition, obj('ClusterRole', false, { aggregationRule: { clusterRoleSelectors: selectors } }))).toEqual([
      'aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator: Invalid value: "Maybe": not a valid selector operator',
      'aggregationRule.clusterRoleSelectors[1]: Invalid value: "null": invalid label selector.',
    ]);
  });
});

describe('bindings', () => {
  const binding = (roleRef: Record<string, unknown>, subjects: unknown[] = [{ kind: 'User', name: 'jane' }]) => ({ roleRef, subjects });

  it('defaults the api groups of roleRef and of user and group subjects', async () => {
    const out = await store(roleBindingDefinition).create(
      'team',
      obj('RoleBinding', true, binding({ kind: 'Role', name: 'reader' }, [
        { kind: 'User', name: 'jane' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      ])),
    );
    expect(out.roleRef).toEqual({ apiGroup: 'rbac.authorization.platform.io', kind: 'Role', name: 'reader' });
    expect(out.subjects).toEqual([
      { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.platform.io' },
      { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.platform.io' },
      { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
    ]);
  });

  it('accepts the rbac.authorization.k8s.io group of Kubernetes manifests', () => {
    const manifest = binding({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' }]);
    expect(validate(roleBindingDefinition, obj('RoleBinding', true, manifest))).toEqual([]);
  });

  it('validates roleRef', () => {
    expect(validate(roleBindingDefinition, obj('RoleBinding', true, binding({ apiGroup: 'example.com', kind: 'Thing', name: '' })))).toEqual([
      'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.platform.io"',
      'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ]);
    expect(validate(clusterRoleBindingDefinition, obj('ClusterRoleBinding', false, binding({ kind: 'Role', name: 'a/b' })))).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      "roleRef.name: Invalid value: \"a/b\": may not contain '/'",
    ]);
    expect(validate(roleBindingDefinition, obj('RoleBinding', true, {}))).toEqual([
      'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ]);
  });

  it('validates subjects', () => {
    const subjects = [
      { kind: 'ServiceAccount', name: 'Builder', apiGroup: 'rbac.authorization.platform.io' },
      { kind: 'User', name: '', apiGroup: 'example.com' },
      { kind: 'Robot', name: 'r2' },
    ];
    expect(validate(clusterRoleBindingDefinition, obj('ClusterRoleBinding', false, binding({ kind: 'ClusterRole', name: 'view' }, subjects)))).toEqual([
      expect.stringMatching(/^subjects\[0\]\.name: Invalid value: "Builder": a lowercase RFC 1123 subdomain must consist of/),
      'subjects[0].apiGroup: Unsupported value: "rbac.authorization.platform.io": supported values: ""',
      'subjects[0].namespace: Required value',
      'subjects[1].name: Required value',
      'subjects[1].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.platform.io"',
      'subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ]);
    expect(validate(roleBindingDefinition, obj('RoleBinding', true, binding({ kind: 'Role', name: 'r' }, [{ kind: 'ServiceAccount', name: 'default' }])))).toEqual([]);
  });

  it('refuses to change roleRef', async () => {
    const s = store(clusterRoleBindingDefinition);
    const out = await s.create(undefined, obj('ClusterRoleBinding', false, binding({ kind: 'ClusterRole', name: 'view' })));
    const changed = { ...structuredClone(out), roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'edit' } };
    const err = await rejected(s.update(undefined, 'reader', changed));
    expect(err.errStatus.message).toBe(
      'ClusterRoleBinding.rbac.authorization.platform.io "reader" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.platform.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    );
  });

  it('takes the RBAC group under either name as the same roleRef', async () => {
    const s = store(clusterRoleBindingDefinition);
    const out = await s.create(undefined, obj('ClusterRoleBinding', false, binding({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' })));
    const respelled = { ...structuredClone(out), roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'view' } };
    const updated = (await s.update(undefined, 'reader', respelled)).object;
    expect(updated.roleRef).toEqual(respelled.roleRef);
    const elsewhere = { ...structuredClone(updated), roleRef: { apiGroup: 'example.com', kind: 'ClusterRole', name: 'view' } };
    expect((await rejected(s.update(undefined, 'reader', elsewhere))).errStatus.message).toContain('cannot change roleRef');
  });

  it('creates on update (PUT to a missing binding)', async () => {
    const s = store(roleBindingDefinition);
    const result = await s.update('team', 'reader', obj('RoleBinding', true, binding({ kind: 'ClusterRole', name: 'view' })));
    expect(result.created).toBe(true);
  });
});

describe('RBAC tables', () => {
  it('shows roles and cluster roles as NAME and CREATED AT', () => {
    expect(roleDefinition.table).toBe(defaultTable);
    expect(clusterRoleDefinition.table).toBe(defaultTable);
    const role = obj('Role', true, {});
    role.metadata.creationTimestamp = '2024-05-01T10:00:00Z';
    expect(roleDefinition.table?.row(role, now)).toEqual(['reader', '2024-05-01T10:00:00Z']);
  });

  it('prints bindings as NAME ROLE AGE with USERS GROUPS SERVICEACCOUNTS', () => {
    for (const [def, kind] of [
      [roleBindingDefinition, 'roleBinding'],
      [clusterRoleBindingDefinition, 'clusterRoleBinding'],
    ] as const) {
      expect(def.table?.columns.map((c) => [c.name, c.priority, c.description.startsWith('RoleRef') || c.description.endsWith(kind) || c.name === 'Name' || c.name === 'Age'])).toEqual([
        ['Name', 0, true],
        ['Role', 0, true],
        ['Age', 0, true],
        ['Users', 1, true],
        ['Groups', 1, true],
        ['ServiceAccounts', 1, true],
      ]);
    }
    const rb = obj('RoleBinding', true, {
      roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'jane' },
        { kind: 'User', name: 'joe' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      ],
    });
    rb.metadata.creationTimestamp = '2024-05-01T11:00:00Z';
    expect(roleBindingDefinition.table?.row(rb, now)).toEqual(['reader', 'ClusterRole/view', '60m', 'jane, joe', 'devs', 'ci/builder']);
  });
});
