// kubectl's auth commands and RBAC end to end: the real /usr/bin/kubectl against the real
// all-in-one process, as the generated admin (client certificate), as impersonated users, and as
// a static-token user with a kubeconfig of its own.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { kubectl, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';

const ivanToken = 'ivan-0123456789abcdef';

// columns splits a kubectl table line on its column padding.
const columns = (line: string) => line.trim().split(/\s{2,}/);

describe('kubectl auth and RBAC against plinth', () => {
  let plinth: PlinthProcess;
  let configDir: string;
  let ivanKubeconfig: string;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });
  const asIvan = (args: string[]) => kubectl(ivanKubeconfig, args);

  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'plinth-kubectl-auth-'));
    const tokenFile = join(configDir, 'tokens.csv');
    writeFileSync(tokenFile, `${ivanToken},ivan,ivan-uid,"support,oncall"\n`);
    plinth = await startPlinth([`--token-auth-file=${tokenFile}`], { timeoutMs: 60000 });
    // The token user's kubeconfig: the admin kubeconfig's server and CA, a bearer token.
    const admin = parseYaml(readFileSync(plinth.kubeconfig, 'utf8'));
    const cluster = admin.clusters[0].cluster;
    ivanKubeconfig = join(configDir, 'ivan.kubeconfig');
    writeFileSync(
      ivanKubeconfig,
      stringifyYaml({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'plinth', cluster: { server: cluster.server, 'certificate-authority-data': cluster['certificate-authority-data'] } }],
        users: [{ name: 'ivan', user: { token: ivanToken } }],
        contexts: [{ name: 'ivan@plinth', context: { cluster: 'plinth', user: 'ivan' } }],
        'current-context': 'ivan@plinth',
      }),
    );
    for (const ns of ['team', 'team-a', 'team-b']) expect((await k(['create', 'namespace', ns])).stdout).toBe(`namespace/${ns} created\n`);
  }, 90000);

  afterAll(async () => {
    await plinth?.stop();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  it('kubectl auth whoami names the admin certificate\'s user and groups', async () => {
    const table = await k(['auth', 'whoami']);
    expect(table).toEqual({ code: 0, stderr: '', stdout: expect.any(String) });
    expect(table.stdout.trimEnd().split('\n').map(columns)).toEqual([
      ['ATTRIBUTE', 'VALUE'],
      ['Username', 'plinth-admin'],
      ['Groups', '[system:masters system:authenticated]'],
    ]);
    const json = await k(['auth', 'whoami', '-o', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      // kube-apiserver 1.28 stamps the review with its creation time
      metadata: { creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
      status: { userInfo: { username: 'plinth-admin', groups: ['system:masters', 'system:authenticated'] } },
    });
  });

  it('kubectl auth whoami --as shows the impersonated user', async () => {
    const res = await k(['auth', 'whoami', '--as', 'alice', '--as-group', 'qa', '-o', 'json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).status.userInfo).toEqual({ username: 'alice', groups: ['qa', 'system:authenticated'] });
  });

  it('kubectl auth can-i answers yes for the admin, and --list shows everything allowed', async () => {
    expect(await k(['auth', 'can-i', 'list', 'pods'])).toEqual({ code: 0, stdout: 'yes\n', stderr: '' });
    expect(await k(['auth', 'can-i', 'delete', 'nodes', '--all-namespaces'])).toEqual({ code: 0, stdout: 'yes\n', stderr: '' });
    const list = await k(['auth', 'can-i', '--list']);
    expect(list.code).toBe(0);
    const rows = list.stdout.trimEnd().split('\n');
    expect(columns(rows[0])).toEqual(['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']);
    // system:masters: every resource and every non-resource URL, all verbs.
    expect(columns(rows[1])).toEqual(['*.*', '[]', '[]', '[*]']);
    expect(columns(rows[2])).toEqual(['[*]', '[]', '[*]']);
    expect(rows.map(columns)).toContainEqual(['selfsubjectreviews.authentication.platform.io', '[]', '[]', '[create]']);
  });

  it('kubectl auth can-i --as alice is no until a RoleBinding to view, then yes in that namespace only', async () => {
    expect(await k(['auth', 'can-i', 'get', 'pods', '--as', 'alice', '-n', 'team'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    const created = await k(['create', 'rolebinding', 'alice-view', '-n', 'team', '--clusterrole=view', '--user=alice']);
    expect(created).toEqual({ code: 0, stdout: 'rolebinding.rbac.authorization.k8s.io/alice-view created\n', stderr: '' });
    await eventually(() => k(['auth', 'can-i', 'get', 'pods', '--as', 'alice', '-n', 'team']), { until: (answer) => answer.stdout === 'yes\n', what: 'alice may get pods' });
    expect(await k(['auth', 'can-i', 'get', 'pods', '--as', 'alice', '-n', 'default'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    // view reads, never writes, and never reads RBAC objects.
    expect(await k(['auth', 'can-i', 'create', 'pods', '--as', 'alice', '-n', 'team'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    expect(await k(['auth', 'can-i', 'list', 'rolebindings', '--as', 'alice', '-n', 'team'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    const rules = await k(['auth', 'can-i', '--list', '--as', 'alice', '-n', 'team']);
    expect(rules.stdout.split('\n').map(columns)).toContainEqual(['pods', '[]', '[]', '[get list watch]']);
  });

  it('kubectl create clusterrole makes the role; a ClusterRoleBinding to it grants in every namespace', async () => {
    const created = await k(['create', 'clusterrole', 'reader', '--verb=get,list', '--resource=pods']);
    expect(created).toEqual({ code: 0, stdout: 'clusterrole.rbac.authorization.k8s.io/reader created\n', stderr: '' });
    const role = JSON.parse((await k(['get', 'clusterrole', 'reader', '-o', 'json'])).stdout);
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    expect(await k(['auth', 'can-i', 'list', 'pods', '--as', 'judy', '-n', 'team-b'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    const bound = await k(['create', 'clusterrolebinding', 'judy-reader', '--clusterrole=reader', '--user=judy']);
    expect(bound).toEqual({ code: 0, stdout: 'clusterrolebinding.rbac.authorization.k8s.io/judy-reader created\n', stderr: '' });
    await eventually(() => k(['auth', 'can-i', 'list', 'pods', '--as', 'judy', '-n', 'team-b']), { until: (answer) => answer.stdout === 'yes\n', what: 'judy may list pods' });
    expect(await k(['auth', 'can-i', 'list', 'pods', '--as', 'judy', '--all-namespaces'])).toEqual({ code: 0, stdout: 'yes\n', stderr: '' });
    expect(await k(['auth', 'can-i', 'delete', 'pods', '--as', 'judy', '-n', 'team-b'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    expect(await k(['auth', 'can-i', 'list', 'jobs.batch', '--as', 'judy', '-n', 'team-b'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
  });

  it('a token user with its own kubeconfig reads the namespace it is bound in and is forbidden in another', async () => {
    const whoami = await asIvan(['auth', 'whoami', '-o', 'json']);
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout).status.userInfo).toEqual({ username: 'ivan', uid: 'ivan-uid', groups: ['support', 'oncall', 'system:authenticated'] });

    const before = await asIvan(['get', 'pods', '-n', 'team-a']);
    expect(before).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (Forbidden): pods is forbidden: User "ivan" cannot list resource "pods" in API group "" in the namespace "team-a"\n',
    });
    expect((await k(['create', '-f', '-'], roleBinding('ivan-reads', 'team-a', 'ClusterRole', 'reader', 'ivan'))).code).toBe(0);
    await eventually(() => asIvan(['auth', 'can-i', 'list', 'pods', '-n', 'team-a']), { until: (answer) => answer.stdout === 'yes\n', what: 'ivan may list pods' });
    expect(await asIvan(['get', 'pods', '-n', 'team-a'])).toEqual({ code: 0, stdout: '', stderr: 'No resources found in team-a namespace.\n' });
    expect(await asIvan(['get', 'pods', '-n', 'team-b'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (Forbidden): pods is forbidden: User "ivan" cannot list resource "pods" in API group "" in the namespace "team-b"\n',
    });
    expect(await asIvan(['auth', 'can-i', 'list', 'pods', '-n', 'team-b'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    // reader allows get and list on pods only: not namespaces, and not writes.
    expect(await asIvan(['get', 'namespaces'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (Forbidden): namespaces is forbidden: User "ivan" cannot list resource "namespaces" in API group "" at the cluster scope\n',
    });
    const del = await asIvan(['delete', 'pod', 'nothing', '-n', 'team-a']);
    expect(del).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (Forbidden): pods "nothing" is forbidden: User "ivan" cannot delete resource "pods" in API group "" in the namespace "team-a"\n',
    });
  });

  it('rejects a kubeconfig with a wrong token: kubectl reports that it must log in', async () => {
    const bad = join(configDir, 'bad.kubeconfig');
    writeFileSync(bad, readFileSync(ivanKubeconfig, 'utf8').replace(ivanToken, 'not-a-token'));
    const res = await kubectl(bad, ['get', 'pods', '-n', 'team-a']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    // kubectl 1.32 says so for a 401 from discovery, as against kube-apiserver.
    expect(res.stderr.trimEnd().split('\n').pop()).toBe('error: You must be logged in to the server (the server has asked for the client to provide credentials)');
  });
});

function roleBinding(name: string, namespace: string, roleKind: 'Role' | 'ClusterRole', role: string, user: string): string {
  return stringifyYaml({
    apiVersion: 'rbac.authorization.platform.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: roleKind, name: role },
    subjects: [{ apiGroup: 'rbac.authorization.platform.io', kind: 'User', name: user }],
  });
}
