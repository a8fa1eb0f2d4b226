// Durations in configuration documents are Go duration strings (metav1.Duration): parsed with
// time.ParseDuration's grammar and written back as time.Duration.String() writes them.

const unitNanos: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const maxNanos = (1n << 63n) - 1n;

// DurationError carries time.ParseDuration's message.
export class DurationError extends Error {}

// parseDurationNanos is time.ParseDuration: [-+]? then one or more decimal numbers, each with an
// optional fraction and a unit; "0" alone is allowed.
export function parseDurationNanos(text: string): bigint {
  const orig = text;
  const invalid = () => new DurationError(`time: invalid duration ${JSON.stringify(orig)}`);
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?([^\d.]*)/.exec(s) ?? ['', '', undefined, ''];
    const [matched, whole, frac, u] = m;
    if (whole === '' && (frac === undefined || frac === '')) throw invalid();
    if (u === '') throw new DurationError(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const unit = Object.hasOwn(unitNanos, u) ? unitNanos[u] : undefined;
    if (unit === undefined) {
      throw new DurationError(`time: unknown unit ${JSON.stringify(u)} in duration ${JSON.stringify(orig)}`);
    }
    s = s.slice(matched.length);
    let v = BigInt(whole || '0') * unit;
    if (frac) v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += v;
    if (total > maxNanos + (neg ? 1n : 0n)) throw invalid();
  }
  return neg ? -total : total;
}

// parseDuration returns the duration in milliseconds (fractional below a millisecond).
export function parseDuration(text: string): number {
  return Number(parseDurationNanos(text)) / 1e6;
}

// formatDuration is time.Duration.String() for a count of nanoseconds: "0s", "300ms", "1.5µs",
// "1h2m3.5s".
export function formatDuration(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const neg = nanos < 0n;
  let u = neg ? -nanos : nanos;
  let out: string;
  if (u < 1_000_000_000n) {
    const [div, unit] = u < 1_000n ? [1n, 'ns'] : u < 1_000_000n ? [1_000n, 'µs'] : [1_000_000n, 'ms'];
    out = fixed(u, div) + unit;
  } else {
    const h = u / 3_600_000_000_000n;
    u %= 3_600_000_000_000n;
    const m = u / 60_000_000_000n;
    u %= 60_000_000_000n;
    out = `${fixed(u, 1_000_000_000n)}s`;
    if (h > 0n || m > 0n) out = `${m}m${out}`;
    if (h > 0n) out = `${h}h${out}`;
  }
  return neg ? `-${out}` : out;
}

// fixed writes v/div in decimal without trailing zeros in the fraction.
function fixed(v: bigint, div: bigint): string {
  const whole = v / div;
  const rest = v % div;
  if (rest === 0n) return `${whole}`;
  const digits = div.toString().length - 1;
  return `${whole}.${rest.toString().padStart(digits, '0').replace(/0+$/, '')}`;
}

// canonicalDuration rewrites a Go duration string as Duration.String() would.
export function canonicalDuration(text: string): string {
  return formatDuration(parseDurationNanos(text));
}
