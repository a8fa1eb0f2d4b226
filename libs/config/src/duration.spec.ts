import { canonicalDuration, formatDuration, parseDuration, parseDurationNanos } from './duration';

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['0s', 0],
    ['300ms', 300],
    ['1.5s', 1500],
    ['1h2m3.5s', 3_723_500],
    ['5m', 300_000],
    ['12h0m0s', 43_200_000],
    ['-1m', -60_000],
    ['+2s', 2000],
    ['1500us', 1.5],
    ['2µs', 0.002],
    ['100ns', 0.0001],
    ['.5s', 500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 9);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['x', 'time: invalid duration "x"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1x', 'time: unknown unit "x" in duration "1x"'],
    ['1constructor', 'time: unknown unit "constructor" in duration "1constructor"'],
    ['.s', 'time: invalid duration ".s"'],
    ['-', 'time: invalid duration "-"'],
  ])('rejects %j with Go\'s message', (text, message) => {
    expect(() => parseDurationNanos(text)).toThrow(message);
  });
});

describe('formatDuration', () => {
  it.each([
    ['0s', '0s'],
    ['300s', '5m0s'],
    ['12h', '12h0m0s'],
    ['1h2m3.5s', '1h2m3.5s'],
    ['300ms', '300ms'],
    ['1.5us', '1.5µs'],
    ['8760h', '8760h0m0s'],
    ['-90s', '-1m30s'],
    ['1ns', '1ns'],
  ])('%s is written %s', (text, canonical) => {
    expect(canonicalDuration(text)).toBe(canonical);
  });

  it('writes nanoseconds', () => {
    expect(formatDuration(3_723_500_000_000n)).toBe('1h2m3.5s');
  });
});
