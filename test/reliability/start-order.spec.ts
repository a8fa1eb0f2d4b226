// The apps start in any order: started in reverse (the gateway first, then authz, the storage
// service, etcd and NATS last), each one waits for what it needs, retrying with backoff, the
// gateway's /readyz says what it waits for, and each link is logged once lost and once back.
import { Cluster, MemberName, startCluster } from './cluster';
import { eventually } from '@plinth/testing';

const adminToken = 'admin-token';

describe('start in any order', () => {
  let cluster: Cluster;

  afterAll(async () => {
    await cluster?.stop();
  });

  it('starts the gateway, the controller manager, authz and storage before etcd and NATS, and serves once they are up', async () => {
    cluster = await startCluster({ started: false, controllers: true });
    const member = (name: MemberName) => {
      const m = cluster.members.get(name);
      if (!m) throw new Error(`no member ${name}`);
      return m;
    };
    const gateway = member('gateway-0');
    gateway.launch();
    // The gateway listens at once and says what it waits for.
    let readyz = '';
    await eventually(async () => {
      try {
        const answer = await cluster.request(0, 'GET', '/readyz?verbose', adminToken);
        readyz = answer.body;
        return answer.status === 500;
      } catch {
        return false;
      }
    }, { timeoutMs: 60_000 });
    expect(readyz).toContain('[-]etcd failed: reason withheld');
    expect(readyz).toContain('[-]nats failed: reason withheld');
    expect(readyz).toContain('[-]poststarthook/bootstrap-controller failed: reason withheld');
    expect(readyz).toContain('readyz check failed');
    // The controller manager waits for the API server to serve.
    const controllers = member('controllers');
    controllers.launch();
    await eventually(() => /link to the API server lost/.test(controllers.log()), { timeoutMs: 60_000 });

    // authz waits for storage instead of ending.
    const authz = member('authz');
    authz.launch();
    await eventually(() => /link to storage lost/.test(authz.log()), { timeoutMs: 60_000 });
    const storage = member('storage');
    storage.launch();
    await storage.ready();
    await member('etcd').start();
    await member('nats').start();
    await authz.ready();
    await gateway.ready();
    await controllers.ready();
    expect(authz.process.child.exitCode).toBeNull();
    const nodes = JSON.parse((await cluster.request(0, 'GET', '/api/v1/nodes', adminToken)).body);
    expect(nodes.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toHaveLength(1);

    expect((await cluster.request(0, 'GET', '/readyz', adminToken)).status).toBe(200);
    // The authz service answers: a user without bindings is refused by RBAC.
    const refused = await cluster.request(0, 'GET', '/api/v1/namespaces/default/serviceaccounts', 'alice-token');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).reason).toBe('Forbidden');
    expect((await cluster.request(0, 'POST', '/api/v1/namespaces/default/serviceaccounts', adminToken, { metadata: { name: 'late' } })).status).toBe(201);
    const metrics = (await cluster.request(0, 'GET', '/metrics', adminToken)).body;
    expect(metrics).toMatch(/^plinth_link_up\{link="nats"\} 1$/m);
    expect(metrics).toMatch(/^plinth_link_up\{link="storage"\} 1$/m);

    // One line when a link is lost (or not made yet), one when it is back: no line per retry.
    const gatewayLog = gateway.log();
    // Requests refused while the authz service was out of reach were 500s, not faults.
    expect(gatewayLog).not.toContain("panic'd");
    expect(gatewayLog.match(/link to storage lost/g)).toHaveLength(1);
    expect(gatewayLog.match(/link to storage back after/g)).toHaveLength(1);
    expect(gatewayLog.match(/link to nats back after/g)).toHaveLength(1);
    const authzLog = authz.log();
    expect(authzLog.match(/link to storage lost/g)).toHaveLength(1);
    expect(authzLog.match(/link to storage back after/g)).toHaveLength(1);
  }, 120_000);
});
