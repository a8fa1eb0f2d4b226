// The controllers section: N Jobs of 10 completions each (parallelism 10) on the all-in-one
// with 5 simulated nodes, from creation until every Job is Complete, with the process's CPU
// time and peak memory (API server, storage, controllers and node simulator share it).
import { readFileSync } from 'node:fs';
import { KubeList, KubeObject } from '@plinth/api';
import { adminClient, startPlinth } from '@plinth/testing-server';

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:')) ?? 'VmHWM: 0 kB';
  return Number(line.replace(/\D+/g, '')) / 1024;
}

export async function jobsBench(jobs: number): Promise<string[]> {
  const plinth = await startPlinth(['--simulated-nodes', '5']);
  const client = adminClient(plinth);
  const path = '/apis/batch/v1/namespaces/default/jobs';
  try {
    const cpu0 = cpuSeconds(plinth.pid);
    const t0 = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: jobs }, (_, i) =>
        client.create(path, {
          metadata: { name: `bench-${i}` },
          spec: { completions: 10, parallelism: 10, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
        }),
      ),
    );
    const deadline = Date.now() + 600_000;
    for (;;) {
      const list = await client.list<KubeObject>(path);
      const done = list.items.filter((j) => ((j.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Complete' && c.status === 'True'));
      if (done.length === jobs) break;
      if (Date.now() > deadline) throw new Error(`only ${done.length} of ${jobs} Jobs completed`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = cpuSeconds(plinth.pid) - cpu0;
    const pods = (await client.list<KubeObject>('/api/v1/namespaces/default/pods')) as KubeList;
    return [
      `controllers: ${jobs} Jobs × 10 completions (parallelism 10) on the all-in-one with 5 simulated nodes`,
      `  all Complete after ${seconds.toFixed(1)} s (${((jobs * 10) / seconds).toFixed(0)} pods completed/s; ${pods.items.length} pods left for the TTL/GC)`,
      `  process CPU ${cpu.toFixed(1)} s (${((cpu / seconds) * 100).toFixed(0)}% of one core), peak RSS ${peakRssMiB(plinth.pid).toFixed(0)} MiB`,
    ];
  } finally {
    client.close();
    await plinth.stop();
  }
}
