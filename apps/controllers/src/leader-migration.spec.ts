// Leader migration with two controller-manager processes: the leader of the main Lease also
// takes the migration Lease and runs the migrated controllers under it, leaves the controllers
// migrating to another component alone, and both Leases pass to the other instance when it stops.
import { ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '@plinth/client';
import { adminClient, PlinthProcess, startPlinth } from '@plinth/testing-server';

const root = join(__dirname, '../../..');

interface Instance {
  child: ChildProcess;
  log(): string;
  exited: Promise<number | null>;
}

describe('controller manager leader migration', () => {
  let plinth: PlinthProcess;
  let admin: ApiClient;
  const instances: Instance[] = [];

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '0', '--controllers=-job,-daemonset,-ttl-after-finished,-garbagecollector,-namespace,-serviceaccount']);
    admin = adminClient(plinth);
  }, 60000);

  afterAll(async () => {
    for (const { child, exited } of instances) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    }
    admin?.close();
    await plinth?.stop();
  });

  function startInstance(migrationConfig: string): Instance {
    const child = spawn(
      process.execPath,
      ['-r', join(root, 'tools/register.js'), join(root, 'apps/controllers/src/main.ts'), '--kubeconfig', plinth.kubeconfig, '--simulated-nodes', '0', '--enable-leader-migration', '--leader-migration-config', migrationConfig],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    let log = '';
    child.stdout?.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    const instance = { child, log: () => log, exited: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))) };
    instances.push(instance);
    return instance;
  }

  async function until<T>(read: () => Promise<T> | T, ok: (v: T) => boolean, what: string, timeoutMs = 40000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (ok(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what} never held; last value: ${JSON.stringify(value).slice(0, 1000)}\n${instances.map((i) => i.log()).join('\n-----\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const identityOf = (instance: Instance) => /identity (\S+)/.exec(instance.log())?.[1];
  const holderOf = async (lease: string) => (await admin.get<{ spec: { holderIdentity?: string } }>(`/apis/coordination.platform.io/v1/namespaces/kube-system/leases/${lease}`)).spec.holderIdentity;
  const jobPods = async (job: string) => (await admin.list('/api/v1/namespaces/default/pods', { labelSelector: `job-name=${job}` })).items.length;
  const createJob = (name: string) =>
    admin.create('/apis/batch/v1/namespaces/default/jobs', { metadata: { name }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });

  it('runs migrated controllers under the migration Lease and hands both Leases over', async () => {
    const config = join(plinth.dataDir, 'leader-migration.yaml');
    writeFileSync(
      config,
      [
        'apiVersion: controllermanager.config.platform.io/v1alpha1',
        'kind: LeaderMigrationConfiguration',
        'leaderName: plinth-migration',
        'resourceLock: leases',
        'controllerLeaders:',
        '- {name: job, component: kube-controller-manager}',
        '- {name: daemonset, component: cloud-controller-manager}',
        '',
      ].join('\n'),
    );
    const a = startInstance(config);
    await until(() => a.log(), (log) => log.includes('job controller running'), 'the first instance running the Job controller');
    const aIdentity = identityOf(a);
    expect(aIdentity).toBeDefined();
    expect(a.log()).toContain('leader migration: starting migrated controllers');
    expect(a.log()).toContain('garbagecollector controller running');
    // The DaemonSet controller migrates to another component: it does not run here.
    expect(a.log()).not.toContain('daemonset controller running');
    expect(await holderOf('kube-controller-manager')).toBe(aIdentity);
    expect(await holderOf('plinth-migration')).toBe(aIdentity);

    const b = startInstance(config);
    await until(() => identityOf(b), (id) => id !== undefined, 'the second instance starting');
    await createJob('under-a');
    await until(() => jobPods('under-a'), (n) => n === 1, 'the Job controller creating a pod');
    expect(await holderOf('kube-controller-manager')).toBe(aIdentity);
    expect(b.log()).not.toContain('controller running');

    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    await until(() => b.log(), (log) => log.includes('job controller running'), 'the second instance taking over', 40000);
    const bIdentity = identityOf(b);
    expect(await holderOf('kube-controller-manager')).toBe(bIdentity);
    expect(await holderOf('plinth-migration')).toBe(bIdentity);
    expect(b.log()).not.toContain('daemonset controller running');
    await createJob('under-b');
    await until(() => jobPods('under-b'), (n) => n === 1, 'the new leader creating a pod');
  }, 120000);
});
