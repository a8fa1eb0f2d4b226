// The controller manager as its own process against the all-in-one API (whose own
// controllers are turned off): a Job runs to completion on the simulated nodes it registers.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';

const root = join(__dirname, '../../..');

describe('controller manager process', () => {
  let plinth: PlinthProcess;

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '0', '--controllers=-job,-daemonset,-ttl-after-finished,-garbagecollector,-namespace,-serviceaccount']);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('finds its own kubeconfig beside the admin one, authenticating as system:kube-controller-manager', async () => {
    const whoami = await kubectl(join(plinth.dataDir, 'controller-manager.kubeconfig'), ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    expect(whoami.stdout).toBe('system:kube-controller-manager');
  });

  it('runs the controllers its configuration document enables, through a kubeconfig, and exits 0 on SIGTERM', async () => {
    const config = join(plinth.dataDir, 'controller-manager.yaml');
    writeFileSync(config, ['apiVersion: platformcontrollermanager.config.platform.io/v1alpha1', 'kind: PlatformControllerManagerConfiguration', 'Generic:', '  Controllers: ["job", "serviceaccount", "-daemonset"]', '  LeaderElection:', '    resourceName: remote-controller-manager', '    leaseDuration: 20s', 'JobController:', '  ConcurrentJobSyncs: 2', ''].join('\n'));
    const child = spawn(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'apps/controllers/src/main.ts'), '--kubeconfig', plinth.kubeconfig, '--config', config, '--simulated-nodes', '1'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr.on('data', (c: Buffer) => (log += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await kubectl(plinth.kubeconfig, ['create', 'job', 'remote', '--image=busybox']);
      await eventually(async () => (await kubectl(plinth.kubeconfig, ['get', 'job', 'remote', '-o', 'jsonpath={.status.succeeded}'])).stdout, {
        until: (succeeded) => succeeded === '1',
        what: () => `the job succeeding; controller log:\n${log}`,
        intervalMs: 250,
      });
      // It leads through the Lease its configuration names, for the duration it names.
      const lease = await kubectl(plinth.kubeconfig, ['get', 'lease', '-n', 'kube-system', 'remote-controller-manager', '-o', 'jsonpath={.spec.leaseDurationSeconds}']);
      expect(lease.stdout).toBe('20');
      expect(log).toContain('job controller running');
      expect(log).not.toContain('daemonset controller running');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60000);
});
