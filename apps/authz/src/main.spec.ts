// The authz service as it runs in production: its own process over the storage service (its
// own process over a real etcd), answering over a real nats-server through NatsAuthorizer, and
// stopped with SIGTERM.
import { join } from 'node:path';
import { connect, NatsConnection } from 'nats';
import { NatsAuthorizer } from '@plinth/authz-nats';
import { realClock } from '@plinth/machinery';
import { nonResourceAttributes, resourceAttributes, UserInfo } from '@plinth/rbac';
import { builtinDefinitions, ResourceStore } from '@plinth/registry';
import { GrpcObjectStore } from '@plinth/storage-grpc';
import { EtcdServer, NatsServer, RunningProcess, startEtcd, startNats, startProcess, waitForOutput, eventually } from '@plinth/testing';

const root = join(__dirname, '../../..');


function runTs(main: string, args: string[], env: NodeJS.ProcessEnv): RunningProcess {
  return startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, main), ...args], { ...process.env, NO_COLOR: '1', ...env });
}

const user = (name: string, groups: string[] = []): UserInfo => ({ name, uid: '', groups, extra: {} });

describe('authz service', () => {
  let etcd: EtcdServer;
  let nats: NatsServer;
  let storage: RunningProcess;
  let authz: RunningProcess;
  let store: GrpcObjectStore;
  let nc: NatsConnection;
  let authorizer: NatsAuthorizer;

  beforeAll(async () => {
    [etcd, nats] = await Promise.all([startEtcd(), startNats()]);
    // The links are plaintext here (the development flags); test/distributed.ts secures them.
    storage = runTs('apps/storage/src/main.ts', ['--storage-insecure'], { PLINTH_ETCD_ENDPOINTS: etcd.endpoint, PLINTH_STORAGE_ADDRESS: '127.0.0.1:0' });
    const storageAddress = await waitForOutput(storage, 'the storage service', /storage service listening on (\S+:\d+)/);
    authz = runTs('apps/authz/src/main.ts', ['--storage-address', storageAddress, `--nats-url=${nats.url}`], { PLINTH_STORAGE_INSECURE: 'true', PLINTH_NATS_INSECURE: 'true' });
    expect(await waitForOutput(authz, 'the authz service', /authz serving on (\S+)/)).toBe(nats.url);
    store = new GrpcObjectStore({ address: storageAddress });
    nc = await connect({ servers: nats.url });
    authorizer = new NatsAuthorizer(nc);
    await authorizer.ready();
  }, 90000);

  afterAll(async () => {
    authorizer?.close();
    await nc?.close();
    await store?.close();
    await authz?.stop();
    await storage?.stop();
    await Promise.all([etcd?.stop(), nats?.stop()]);
  });

  it('allows system:masters and what the bootstrap policy grants, and nothing to a user without bindings', async () => {
    const masters = await authorizer.authorize(resourceAttributes({ user: user('root', ['system:masters']), verb: 'delete', resource: 'nodes' }));
    expect(masters.decision).toBe('Allow');
    const healthz = await authorizer.authorize(nonResourceAttributes({ user: user('anyone', ['system:authenticated']), verb: 'get', path: '/healthz' }));
    expect(healthz).toMatchObject({ decision: 'Allow', reason: expect.stringMatching(/^RBAC: allowed by ClusterRoleBinding "system:discovery"/) });
    const alice = await authorizer.authorize(resourceAttributes({ user: user('alice'), verb: 'list', resource: 'pods', namespace: 'default' }));
    expect(alice.decision).toBe('NoOpinion');
    expect(await authorizer.rulesReview(user('alice'), 'default')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });

  it('allows a user once a ClusterRoleBinding for them is created', async () => {
    const def = builtinDefinitions().find((d) => d.group === 'rbac.authorization.platform.io' && d.kind === 'ClusterRoleBinding');
    if (!def) throw new Error('no ClusterRoleBinding definition');
    const bindings = new ResourceStore(def, store, realClock, new Map());
    const question = resourceAttributes({ user: user('bob'), verb: 'list', resource: 'pods', namespace: 'default' });
    expect((await authorizer.authorize(question)).decision).toBe('NoOpinion');
    await bindings.create(undefined, {
      apiVersion: 'rbac.authorization.platform.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bob-view' },
      roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'bob' }],
    });
    // The denial was cached; the service's policy-changed message drops it.
    await eventually(async () => (await authorizer.authorize(question)).decision === 'Allow');
    const rules = await authorizer.rulesReview(user('bob'), 'default');
    expect(rules.resourceRules).toEqual(expect.arrayContaining([expect.objectContaining({ resources: expect.arrayContaining(['pods']) })]));
  });

  it('exits 0 on SIGTERM, after which nobody answers', async () => {
    const exited = new Promise<number | null>((resolve) => authz.child.once('exit', (code) => resolve(code)));
    authz.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const fresh = new NatsAuthorizer(nc, { allowedTtlMs: 0, deniedTtlMs: 0 });
    try {
      await expect(fresh.authorize(resourceAttributes({ user: user('bob'), verb: 'get', resource: 'pods' }))).rejects.toThrow('no authorization service is answering on plinth.authz.authorize');
    } finally {
      fresh.close();
    }
  });
});
