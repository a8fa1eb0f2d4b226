// Leader migration with two controller-manager processes: the leader of the main Lease also
// takes the migration Lease and runs the migrated controllers under it, leaves the controllers
// migrating to another component alone, and both Leases pass to the other instance when it stops.
import { ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '@plinth/client';
import { adminClient, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';

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
    await eventually(() => a.log(), { until: (log) => log.includes('job controller running'), what: 'the first instance running the Job controller', timeoutMs: 40_000 });
    const aIdentity = identityOf(a);
    expect(aIdentity).toBeDefined();
    expect(a.log()).toContain('leader migration: starting migrated controllers');
    expect(a.log()).toContain('garbagecollector controller running');
    // The DaemonSet controller migrates to another component: it does not run here.
    expect(a.log()).not.toContain('daemonset controller running');
    expect(await holderOf('kube-controller-manager')).toBe(aIdentity);
    expect(await holderOf('plinth-migration')).toBe(aIdentity);

    const b = startInstance(config);
    await eventually(() => identityOf(b), { until: (id) => id !== undefined, what: 'the second instance starting', timeoutMs: 40_000 });
    await createJob('under-a');
    await eventually(() => jobPods('under-a'), { until: (n) => n === 1, what: 'the Job controller creating a pod', timeoutMs: 40_000 });
    expect(await holderOf('kube-controller-manager')).toBe(aIdentity);
    expect(b.log()).not.toContain('controller running');

    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    await eventually(() => b.log(), { until: (log) => log.includes('job controller running'), what: 'the second instance taking over', timeoutMs: 40000 });
    const bIdentity = identityOf(b);
    expect(await holderOf('kube-controller-manager')).toBe(bIdentity);
    expect(await holderOf('plinth-migration')).toBe(bIdentity);
    expect(b.log()).not.toContain('daemonset controller running');
    await createJob('under-b');
    await eventually(() => jobPods('under-b'), { until: (n) => n === 1, what: 'the new leader creating a pod', timeoutMs: 40_000 });
  }, 120000);
});
