// The bench's memory figures: a process's RSS read from /proc, and what a thousand things add.
import { memoryPerThousand, residentMiB, sampleRss } from './memory';

describe('bench memory figures', () => {
  it('reads the resident memory of a running process', () => {
    const [[name, mib]] = sampleRss([['bench', { pid: process.pid }]]);
    expect(name).toBe('bench');
    expect(mib).toBeGreaterThan(1);
    expect(residentMiB(process.pid)).toBeGreaterThan(1);
  });

  it('gives the RSS added per thousand, in all and by process', () => {
    const before: [string, number][] = [
      ['gateway', 100],
      ['storage', 80],
      ['authz', 70],
    ];
    const after: [string, number][] = [
      ['gateway', 150],
      ['storage', 90],
      ['authz', 70],
    ];
    expect(memoryPerThousand('open watches', 2000, before, after)).toBe('  memory per 1,000 open watches: 30.0 MiB (gateway 25.0, storage 5.0, authz 0.0; RSS 250 → 310 MiB over 2,000)');
  });
});
