// The bench's figures: percentiles over sorted latencies, and rounds of one work combined.
import { combine, percentile, summarize } from './stats';

describe('bench figures', () => {
  it('summarizes latencies into rate and percentiles, keeping them sorted', () => {
    const figures = summarize([5, 1, 3, 2, 4], 2);
    expect(figures).toMatchObject({ ops: 5, seconds: 2, opsPerSecond: 2.5, p50: 3, p99: 5 });
    expect(figures.latencies).toEqual([1, 2, 3, 4, 5]);
    expect(percentile([], 50)).toBe(0);
  });

  it('combines rounds of one work as if they had been one run', () => {
    const first = summarize([10, 30], 1);
    const second = summarize([20, 40, 50, 60], 3);
    const both = combine([first, second]);
    expect(both).toMatchObject({ ops: 6, seconds: 4, opsPerSecond: 1.5, p50: 30, p99: 60 });
    expect(both.latencies).toEqual([10, 20, 30, 40, 50, 60]);
  });
});
