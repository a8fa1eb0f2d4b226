// The *.k8s.io aliases through the real kubectl against the all-in-one: one manifest applies with
// either spelling of its groups (kubectl maps the kinds through discovery and OpenAPI), the
// objects are listed once, under the platform group a bare resource name resolves to, and
// `kubectl diff` of the other spelling finds nothing to change. With --k8s-aliases=false the
// k8s.io spelling is refused as Kubernetes refuses a group it does not serve.
import { kubectl, PlinthProcess, startPlinth } from '@plinth/testing-server';

const namespace = 'alias-e2e';

// manifest is one Role, RoleBinding, ClusterRole and Lease, their apiVersions in the given
// domain. The binding's roleRef and subject name the RBAC group as Kubernetes manifests do
// (rbac.authorization.k8s.io): that is data, stored as written, and a roleRef may not change.
const manifest = (domain: 'k8s.io' | 'platform.io') => `
apiVersion: rbac.authorization.${domain}/v1
kind: Role
metadata:
  name: pod-reader
  namespace: ${namespace}
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.${domain}/v1
kind: RoleBinding
metadata:
  name: read-pods
  namespace: ${namespace}
subjects:
- kind: User
  name: jane
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.${domain}/v1
kind: ClusterRole
metadata:
  name: alias-e2e-node-reader
rules:
- apiGroups: [""]
  resources: ["nodes"]
  verbs: ["get"]
---
apiVersion: coordination.${domain}/v1
kind: Lease
metadata:
  name: holder
  namespace: ${namespace}
spec:
  holderIdentity: alias-e2e
  leaseDurationSeconds: 30
`;

describe('the *.k8s.io aliases through kubectl', () => {
  let plinth: PlinthProcess;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '0']);
    await k(['create', 'namespace', namespace]);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('applies the same manifest with either group name, lists each object once, and diffs clean in the other spelling', async () => {
    const created = await k(['apply', '-f', '-'], manifest('k8s.io'));
    expect(created.stderr).toBe('');
    expect(created.stdout.trim().split('\n')).toEqual([
      'role.rbac.authorization.k8s.io/pod-reader created',
      'rolebinding.rbac.authorization.k8s.io/read-pods created',
      'clusterrole.rbac.authorization.k8s.io/alias-e2e-node-reader created',
      'lease.coordination.k8s.io/holder created',
    ]);
    expect((await k(['diff', '-f', '-'], manifest('platform.io'))).code).toBe(0);

    // Applied again in the platform spelling, the same objects are configured, none created.
    const reapplied = await k(['apply', '-f', '-'], manifest('platform.io'));
    expect(reapplied.stderr).toBe('');
    expect(reapplied.stdout.trim().split('\n').map((line) => line.replace(/ (configured|unchanged)$/, ''))).toEqual([
      'role.rbac.authorization.platform.io/pod-reader',
      'rolebinding.rbac.authorization.platform.io/read-pods',
      'clusterrole.rbac.authorization.platform.io/alias-e2e-node-reader',
      'lease.coordination.platform.io/holder',
    ]);
    expect((await k(['diff', '-f', '-'], manifest('k8s.io'))).code).toBe(0);
    expect((await k(['diff', '-f', '-'], manifest('platform.io'))).code).toBe(0);

    // A bare resource name resolves to the platform group, which lists each object once.
    const listed = await k(['get', 'roles,rolebindings,leases', '-n', namespace, '-o', 'name']);
    expect(listed.stdout.trim().split('\n')).toEqual(['role.rbac.authorization.platform.io/pod-reader', 'rolebinding.rbac.authorization.platform.io/read-pods', 'lease.coordination.platform.io/holder']);
    const table = await k(['get', 'roles', '-n', namespace]);
    expect(table.stdout).toMatch(/^NAME\s+CREATED AT\npod-reader\s+\d{4}-\d\d-\d\dT[^\n]+\n$/);
    // The alias names the same object.
    const aliased = await k(['get', 'roles.rbac.authorization.k8s.io', 'pod-reader', '-n', namespace, '-o', 'jsonpath={.apiVersion} {.metadata.uid}']);
    const own = await k(['get', 'roles.rbac.authorization.platform.io', 'pod-reader', '-n', namespace, '-o', 'jsonpath={.apiVersion} {.metadata.uid}']);
    expect(aliased.stdout.split(' ')[0]).toBe('rbac.authorization.k8s.io/v1');
    expect(own.stdout.split(' ')[0]).toBe('rbac.authorization.platform.io/v1');
    expect(aliased.stdout.split(' ')[1]).toBe(own.stdout.split(' ')[1]);

    // A change is a change in either spelling.
    const changed = await k(['diff', '-f', '-'], manifest('k8s.io').replace('verbs: ["get", "list"]', 'verbs: ["get", "list", "watch"]'));
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('+  - watch');

    // Server-side apply takes either spelling as well.
    const serverSide = await k(['apply', '--server-side', '--force-conflicts', '-f', '-'], manifest('k8s.io'));
    expect(serverSide.stderr).toBe('');
    expect(serverSide.stdout).toContain('role.rbac.authorization.k8s.io/pod-reader serverside-applied');
    expect((await k(['diff', '--server-side', '--force-conflicts', '-f', '-'], manifest('platform.io'))).code).toBe(0);

    const deleted = await k(['delete', '-f', '-'], manifest('k8s.io'));
    expect(deleted.stdout).toContain('role.rbac.authorization.k8s.io "pod-reader" deleted');
    expect((await k(['get', 'roles,rolebindings,leases', '-n', namespace, '-o', 'name'])).stdout).toBe('');
    expect((await k(['get', 'clusterrole', 'alias-e2e-node-reader'])).code).toBe(1);
  });

  it('explains a kind under its alias', async () => {
    const explained = await k(['explain', 'roles.rbac.authorization.k8s.io.rules']);
    expect(explained.code).toBe(0);
    expect(explained.stdout).toContain('GROUP:      rbac.authorization.k8s.io');
    expect(explained.stdout).toMatch(/verbs\s+<\[\]string> -required-/);
  });
});

describe('kubectl with --k8s-aliases=false', () => {
  let plinth: PlinthProcess;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '0', '--k8s-aliases=false']);
    await k(['create', 'namespace', namespace]);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('refuses the k8s.io spelling and applies the platform one', async () => {
    const refused = await k(['apply', '-f', '-'], manifest('k8s.io'));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('no matches for kind "Role" in version "rbac.authorization.k8s.io/v1"');
    expect((await k(['get', 'roles', '-n', namespace, '-o', 'name'])).stdout).toBe('');
    const applied = await k(['apply', '-f', '-'], manifest('platform.io'));
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('role.rbac.authorization.platform.io/pod-reader created');
    expect((await k(['api-resources', '-o', 'name'])).stdout).not.toContain('k8s.io');
  });
});
