// Latency and throughput figures of a benchmark run.
export interface Figures {
  ops: number;
  seconds: number;
  opsPerSecond: number;
  p50: number;
  p99: number;
  // latencies are the measured ones, sorted (ms).
  latencies: number[];
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

// runConcurrent runs op(i) for i in [0, count) with `inFlight` running at once and measures each.
export async function runConcurrent(count: number, inFlight: number, op: (i: number) => Promise<unknown>): Promise<Figures> {
  const latencies: number[] = new Array(count);
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const t0 = process.hrtime.bigint();
      await op(i);
      latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return summarize(latencies, seconds);
}

export function summarize(latencies: number[], seconds: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { ops: latencies.length, seconds, opsPerSecond: latencies.length / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), latencies: sorted };
}

// combine joins the figures of runs of the same work (rounds of an A B A B comparison).
export function combine(runs: Figures[]): Figures {
  return summarize(
    runs.flatMap((run) => run.latencies),
    runs.reduce((sum, run) => sum + run.seconds, 0),
  );
}

export function formatRow(name: string, raw: Figures, service: Figures): string {
  const f = (n: number, d = 0) => n.toFixed(d).padStart(8);
  return `${name.padEnd(34)}${f(raw.opsPerSecond)}${f(raw.p50, 2)}${f(raw.p99, 2)}  |${f(service.opsPerSecond)}${f(service.p50, 2)}${f(service.p99, 2)}  |${f(service.opsPerSecond / raw.opsPerSecond, 2)}`;
}

export const header = `${'operation'.padEnd(34)}${'ops/s'.padStart(8)}${'p50ms'.padStart(8)}${'p99ms'.padStart(8)}  |${'ops/s'.padStart(8)}${'p50ms'.padStart(8)}${'p99ms'.padStart(8)}  |${'ratio'.padStart(8)}`;
