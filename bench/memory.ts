// The memory of the benchmarked processes: their resident set sizes (RSS, from /proc on Linux)
// and the scale section's "memory per thousand" figures, the RSS a thousand open watches or a
// thousand stored objects add to the distributed processes (gateway, storage, authz).
import { readFileSync } from 'node:fs';

// residentMiB is the resident memory of a process, in MiB.
export function residentMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')) ?? 'VmRSS: 0 kB';
  return Number(line.replace(/\D+/g, '')) / 1024;
}

// RssSample is the RSS of each named process at one moment, in MiB.
export type RssSample = [string, number][];

export function sampleRss(processes: readonly (readonly [string, { pid: number }])[]): RssSample {
  return processes.map(([name, { pid }]) => [name, residentMiB(pid)]);
}

// memoryPerThousand reads what `count` things (watches, objects) cost as the RSS they added
// between two samples, per thousand: the sum over the processes, then each process.
export function memoryPerThousand(what: string, count: number, before: RssSample, after: RssSample): string {
  const thousands = Math.max(count, 1) / 1000;
  const total = (sample: RssSample) => sample.reduce((sum, [, mib]) => sum + mib, 0);
  const added = after.map(([name, mib]) => {
    const was = before.find(([n]) => n === name)?.[1] ?? 0;
    return `${name} ${((mib - was) / thousands).toFixed(1)}`;
  });
  return `  memory per 1,000 ${what}: ${((total(after) - total(before)) / thousands).toFixed(1)} MiB (${added.join(', ')}; RSS ${total(before).toFixed(0)} → ${total(after).toFixed(0)} MiB over ${count.toLocaleString('en')})`;
}
