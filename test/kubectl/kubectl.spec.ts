// kubectl end to end: the real /usr/bin/kubectl against the real all-in-one process.
import { kubectl, kubectl132Binary, PlinthProcess, spawnKubectl, startPlinth } from '@plinth/testing-server';

const jobYaml = (name: string, image = 'busybox') => `
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
  labels:
    app: demo
spec:
  suspend: true
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: ${image}
`;

describe('kubectl against plinth', () => {
  let plinth: PlinthProcess;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });

  beforeAll(async () => {
    plinth = await startPlinth();
  }, 60000);

  afterAll(() => plinth?.stop());

  it('creates access reviews from a file (kubectl validates them after listing CRDs)', async () => {
    const review = `
apiVersion: authorization.platform.io/v1
kind: SelfSubjectAccessReview
spec:
  resourceAttributes:
    verb: get
    resource: pods
    namespace: default
`;
    const res = await k(['create', '-f', '-', '-o', 'json'], review);
    expect(res.stderr).toBe('');
    const created = JSON.parse(res.stdout);
    expect(created).toMatchObject({ kind: 'SelfSubjectAccessReview', status: { allowed: true } });
  });

  it('lists namespaces with the Table columns', async () => {
    const res = await k(['get', 'namespaces']);
    expect(res.stderr).toBe('');
    expect(res.stdout.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+AGE$/);
    expect(res.stdout).toMatch(/default\s+Active\s+\d+s/);
    expect(res.stdout).toMatch(/kube-system\s+Active/);
  });

  it('creates from a file and reads back as YAML', async () => {
    const created = await k(['create', '-f', '-'], jobYaml('kc-create'));
    expect(created.stdout.trim()).toBe('job.batch/kc-create created');
    const yaml = await k(['get', 'job', 'kc-create', '-o', 'yaml']);
    expect(yaml.stdout).toContain('backoffLimit: 6');
    expect(yaml.stdout).toContain('kind: Job');
    const table = await k(['get', 'jobs']);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+COMPLETIONS\s+DURATION\s+AGE$/);
  });

  it('applies client-side twice, replaces and patches', async () => {
    expect((await k(['apply', '-f', '-'], jobYaml('kc-apply'))).stdout.trim()).toBe('job.batch/kc-apply created');
    const second = await k(['apply', '-f', '-'], jobYaml('kc-apply').replace('app: demo', 'app: demo2'));
    expect(second.stderr).toBe('');
    expect(second.stdout.trim()).toBe('job.batch/kc-apply configured');
    expect((await k(['get', 'job', 'kc-apply', '-o', 'jsonpath={.metadata.labels.app}'])).stdout).toBe('demo2');
    const merge = await k(['patch', 'job', 'kc-apply', '--type', 'merge', '-p', '{"metadata":{"labels":{"tier":"gold"}}}']);
    expect(merge.stdout.trim()).toBe('job.batch/kc-apply patched');
    const json = await k(['patch', 'job', 'kc-apply', '--type', 'json', '-p', '[{"op":"replace","path":"/metadata/labels/tier","value":"silver"}]']);
    expect(json.stdout.trim()).toBe('job.batch/kc-apply patched');
    expect((await k(['get', 'job', 'kc-apply', '-o', 'jsonpath={.metadata.labels.tier}'])).stdout).toBe('silver');
    const current = await k(['get', 'job', 'kc-apply', '-o', 'json']);
    const replaced = JSON.parse(current.stdout);
    replaced.metadata.labels.replaced = 'yes';
    // Unconditional replace: the Job controller may have written the status since the get.
    delete replaced.metadata.resourceVersion;
    expect((await k(['replace', '-f', '-'], JSON.stringify(replaced))).stdout.trim()).toBe('job.batch/kc-apply replaced');
  });

  it('reads in chunks and deletes with a cascade', async () => {
    for (const name of ['kc-c1', 'kc-c2', 'kc-c3']) await k(['create', 'namespace', name]);
    const chunked = await k(['get', 'namespaces', '--chunk-size=2', '-o', 'name']);
    expect(chunked.stdout).toContain('namespace/kc-c3');
    await k(['create', '-f', '-'], jobYaml('kc-del'));
    const deleted = await k(['delete', 'job', 'kc-del', '--cascade=background']);
    expect(deleted.stdout.trim()).toBe('job.batch "kc-del" deleted');
    const missing = await k(['get', 'job', 'kc-del']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trim()).toBe('Error from server (NotFound): jobs.batch "kc-del" not found');
  });

  it('watches with get -w', async () => {
    const watcher = spawnKubectl(plinth.kubeconfig, ['get', 'namespaces', '-w']);
    try {
      await watcher.waitFor(/default/);
      await k(['create', 'namespace', 'kc-watched']);
      await watcher.waitFor(/kc-watched/);
    } finally {
      watcher.stop();
    }
  });

  it('lists API resources and reads raw health', async () => {
    const resources = await k(['api-resources']);
    expect(resources.stdout).toMatch(/jobs\s+batch\/v1\s+true\s+Job/);
    expect(resources.stdout).toMatch(/clusterroles\s+rbac\.authorization\.platform\.io\/v1\s+false\s+ClusterRole/);
    const ready = await k(['get', '--raw', '/readyz?verbose']);
    expect(ready.stdout).toContain('readyz check passed');
  });

  it('explains a field from the OpenAPI documents', async () => {
    const res = await k(['explain', 'job.spec.backoffLimit']);
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('backoffLimit');
  });

  it('creates every served kind from YAML', async () => {
    const manifests = `
apiVersion: v1
kind: ServiceAccount
metadata: {name: kc-sa}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: kc-ds}
spec:
  selector: {matchLabels: {app: kc-ds}}
  template:
    metadata: {labels: {app: kc-ds}}
    spec:
      containers: [{name: c, image: nginx}]
---
apiVersion: storage.platform.io/v1
kind: StorageClass
metadata: {name: kc-sc}
provisioner: example.com/disk
---
apiVersion: node.platform.io/v1
kind: RuntimeClass
metadata: {name: kc-rc}
handler: runc
---
apiVersion: rbac.authorization.platform.io/v1
kind: Role
metadata: {name: kc-role}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: rbac.authorization.platform.io/v1
kind: RoleBinding
metadata: {name: kc-rb}
roleRef: {apiGroup: rbac.authorization.platform.io, kind: Role, name: kc-role}
subjects: [{kind: User, name: alice, apiGroup: rbac.authorization.platform.io}]
---
apiVersion: coordination.platform.io/v1
kind: Lease
metadata: {name: kc-lease}
spec: {holderIdentity: me}
`;
    const res = await k(['create', '-f', '-'], manifests);
    expect(res.stderr).toBe('');
    expect(res.stdout.trim().split('\n')).toEqual([
      'serviceaccount/kc-sa created',
      'daemonset.apps/kc-ds created',
      'storageclass.storage.platform.io/kc-sc created',
      'runtimeclass.node.platform.io/kc-rc created',
      'role.rbac.authorization.platform.io/kc-role created',
      'rolebinding.rbac.authorization.platform.io/kc-rb created',
      'lease.coordination.platform.io/kc-lease created',
    ]);
    const sc = await k(['get', 'storageclass', 'kc-sc']);
    expect(sc.stdout.split('\n')[0]).toMatch(/^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE$/);
    const ds = await k(['get', 'ds', 'kc-ds']);
    expect(ds.stdout.split('\n')[0]).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE$/);
  });

  it('applies server-side, shows managedFields, and reports conflicts', async () => {
    const first = await k(['apply', '--server-side', '-f', '-'], jobYaml('kc-ssa'));
    expect(first.stderr).toBe('');
    expect(first.stdout.trim()).toBe('job.batch/kc-ssa serverside-applied');
    const managers = await k(['get', 'job', 'kc-ssa', '--show-managed-fields', '-o', 'jsonpath={range .metadata.managedFields[*]}{.manager}/{.operation} {end}']);
    expect(managers.stdout.trim().split(' ')).toContain('kubectl/Apply');
    await k(['label', 'job', 'kc-ssa', 'app=other', '--overwrite']);
    const conflict = await k(['apply', '--server-side', '-f', '-'], jobYaml('kc-ssa'));
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-label" using batch/v1: .metadata.labels.app');
    const forced = await k(['apply', '--server-side', '--force-conflicts', '-f', '-'], jobYaml('kc-ssa'));
    expect(forced.stdout.trim()).toBe('job.batch/kc-ssa serverside-applied');
  });

  it('deletes a namespace and everything in it', async () => {
    await k(['create', 'namespace', 'kc-doomed']);
    await k(['create', '-n', 'kc-doomed', '-f', '-'], jobYaml('inside'));
    const deleted = await k(['delete', 'namespace', 'kc-doomed', '--timeout=60s']);
    expect(deleted.stdout.trim()).toBe('namespace "kc-doomed" deleted');
    const gone = await k(['get', 'namespace', 'kc-doomed']);
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): namespaces "kc-doomed" not found');
  });

  it('dry-runs server-side apply, removes list items with client-side apply, patches strategic and status', async () => {
    const dry = await k(['apply', '--server-side', '--dry-run=server', '-f', '-'], jobYaml('kc-dry'));
    expect(dry.stdout.trim()).toBe('job.batch/kc-dry serverside-applied (server dry run)');
    expect((await k(['get', 'job', 'kc-dry'])).code).not.toBe(0);

    const twoContainers = `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: kc-list}
spec:
  selector: {matchLabels: {app: kc-list}}
  template:
    metadata: {labels: {app: kc-list}}
    spec:
      containers:
      - {name: a, image: nginx}
      - {name: b, image: busybox}
`;
    await k(['apply', '-f', '-'], twoContainers);
    const oneContainer = twoContainers.replace('      - {name: b, image: busybox}\n', '');
    expect((await k(['apply', '-f', '-'], oneContainer)).stdout.trim()).toBe('daemonset.apps/kc-list configured');
    expect((await k(['get', 'ds', 'kc-list', '-o', 'jsonpath={.spec.template.spec.containers[*].name}'])).stdout).toBe('a');

    const strategic = await k(['patch', 'ds', 'kc-list', '--type', 'strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"redis"}]}}}}']);
    expect(strategic.stdout.trim()).toBe('daemonset.apps/kc-list patched');
    expect((await k(['get', 'ds', 'kc-list', '-o', 'jsonpath={.spec.template.spec.containers[*].name}'])).stdout).toBe('c a');

    const status = await k(['patch', 'node', 'sim-node-0', '--subresource', 'status', '--type', 'merge', '-p', '{"status":{"capacity":{"cpu":"64"}}}']);
    expect(status.stdout.trim()).toBe('node/sim-node-0 patched');
    expect((await k(['get', 'node', 'sim-node-0', '-o', 'jsonpath={.status.capacity.cpu}'])).stdout).toBe('64');
  });

  it('issues a service-account token with kubectl create token', async () => {
    await k(['create', 'serviceaccount', 'kc-robot']);
    const token = await k(['create', 'token', 'kc-robot', '--duration=10m']);
    expect(token.stderr).toBe('');
    expect(token.stdout.trim().split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(token.stdout.trim().split('.')[1], 'base64url').toString('utf8'));
    expect(claims.sub).toBe('system:serviceaccount:default:kc-robot');
    expect(claims.exp - claims.iat).toBe(600);
  });

  it('speaks protobuf with kubectl 1.32: create, reviews, tokens and Status errors', async () => {
    const k132 = (args: string[]) => kubectl(plinth.kubeconfig, ['-v=8', ...args], { binary: kubectl132Binary });
    // The request's headers, then the response's, both name protobuf.
    const protobufBoth = /Request Headers:\n(?:.*\n)*?.*Content-Type: application\/vnd\.kubernetes\.protobuf\n[\s\S]*Response Headers:\n(?:.*\n)*?.*Content-Type: application\/vnd\.kubernetes\.protobuf\n/;
    const ns = await k132(['create', 'namespace', 'kc-proto']);
    expect(ns.stdout.trim()).toBe('namespace/kc-proto created');
    expect(ns.stderr).toMatch(protobufBoth);
    const again = await k132(['create', 'namespace', 'kc-proto']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Response Status: 409 Conflict[\s\S]*Content-Type: application\/vnd\.kubernetes\.protobuf\n/);
    expect(again.stderr).toContain('Error from server (AlreadyExists): namespaces "kc-proto" already exists');
    const job = await k132(['create', 'job', 'kc-proto-job', '--image=busybox:1.36', '-n', 'kc-proto', '--', 'sh', '-c', 'exit 0']);
    expect(job.stdout.trim()).toBe('job.batch/kc-proto-job created');
    expect(job.stderr).toMatch(protobufBoth);
    const stored = JSON.parse((await k(['get', 'job', 'kc-proto-job', '-n', 'kc-proto', '-o', 'json'])).stdout);
    expect(stored.spec.template.spec.containers).toEqual([expect.objectContaining({ name: 'kc-proto-job', image: 'busybox:1.36', command: ['sh', '-c', 'exit 0'], resources: {} })]);
    expect(stored.spec.template.spec.restartPolicy).toBe('Never');
    const whoami = await k132(['auth', 'whoami']);
    expect(whoami.stdout).toMatch(/Username\s+plinth-admin/);
    expect(whoami.stderr).toMatch(protobufBoth);
    const canI = await k132(['auth', 'can-i', 'create', 'jobs', '-n', 'kc-proto']);
    expect(canI.stdout.trim()).toBe('yes');
    expect(canI.stderr).toMatch(protobufBoth);
    await k(['create', 'serviceaccount', 'kc-proto-sa', '-n', 'kc-proto']);
    const token = await k132(['create', 'token', 'kc-proto-sa', '-n', 'kc-proto', '--duration=10m']);
    expect(token.stderr).toMatch(protobufBoth);
    const claims = JSON.parse(Buffer.from(token.stdout.trim().split('.')[1], 'base64url').toString());
    expect(claims.sub).toBe('system:serviceaccount:kc-proto:kc-proto-sa');
  });

  it('creates roles and bindings with kubectl create (protobuf bodies)', async () => {
    await k(['create', 'namespace', 'kc-rbac']);
    expect((await k(['create', 'clusterrole', 'kc-reader', '--verb=get,list', '--resource=pods'])).stdout.trim()).toBe('clusterrole.rbac.authorization.k8s.io/kc-reader created');
    const crb = await k(['create', 'clusterrolebinding', 'kc-reader-binding', '--clusterrole=kc-reader', '--user=alice']);
    expect(crb.stderr).toBe('');
    expect(crb.stdout.trim()).toBe('clusterrolebinding.rbac.authorization.k8s.io/kc-reader-binding created');
    const rb = await k(['create', 'rolebinding', 'kc-view', '--clusterrole=view', '--user=bob', '--group=qa', '-n', 'kc-rbac']);
    expect(rb.stdout.trim()).toBe('rolebinding.rbac.authorization.k8s.io/kc-view created');
    const stored = JSON.parse((await k(['get', 'rolebinding', 'kc-view', '-n', 'kc-rbac', '-o', 'json'])).stdout);
    expect(stored.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
    expect(stored.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'qa' },
    ]);
    // kubectl 1.32's create rolebinding sends a protobuf body and accepts protobuf first: the
    // answer is protobuf, which kubectl decodes to print the created name.
    const traced = await kubectl(plinth.kubeconfig, ['create', 'rolebinding', 'kc-proto', '--clusterrole=view', '--group=proto', '-n', 'kc-rbac', '-v=8'], { binary: kubectl132Binary });
    expect(traced.stdout.trim()).toBe('rolebinding.rbac.authorization.k8s.io/kc-proto created');
    expect(traced.stderr).toContain('Accept: application/vnd.kubernetes.protobuf,application/json\n');
    expect(traced.stderr).toMatch(/Response Status: 201 Created[\s\S]*Content-Type: application\/vnd\.kubernetes\.protobuf\n/);
    const boundGroup = JSON.parse((await k(['get', 'rolebinding', 'kc-proto', '-n', 'kc-rbac', '-o', 'json'])).stdout);
    expect(boundGroup.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'proto' }]);
    expect((await k(['auth', 'can-i', 'list', 'pods', '--as', 'alice', '-A'])).stdout.trim()).toBe('yes');
    expect((await k(['auth', 'can-i', 'list', 'pods', '--as', 'bob', '-n', 'kc-rbac'])).stdout.trim()).toBe('yes');
    expect((await k(['auth', 'can-i', 'list', 'pods', '--as', 'bob', '-n', 'default'])).stdout.trim()).toBe('no');
  });
});
