// Quantity is resource.Quantity of k8s.io/apimachinery/pkg/api/resource (v1.28), kept as an
// exact count of nano units so that sums and comparisons are exact; canonical printing follows
// Quantity.String() (CanonicalizeBytes).

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

export interface Quantity {
  // nanos is the value in units of 10^-9, rounded up as ParseQuantity rounds to nano precision.
  nanos: bigint;
  format: QuantityFormat;
}

export const quantityFormatError = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const quantitySuffixError = "unable to parse quantity's suffix";

const quantityPattern = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const numberPattern = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const binarySuffixes: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const NANO = 1_000_000_000n;

// parseQuantity returns the quantity, or throws an Error with Kubernetes' message.
export function parseQuantity(text: string | number): Quantity {
  const str = typeof text === 'number' ? String(text) : text;
  const m = quantityPattern.exec(str.trim() === str ? str : '');
  if (!m || !numberPattern.test(m[1])) throw new Error(quantityFormatError);
  const [, num, suffix] = m;
  let base = 10;
  let exponent = 0;
  let format: QuantityFormat;
  if (suffix in binarySuffixes) {
    base = 2;
    exponent = binarySuffixes[suffix];
    format = 'BinarySI';
  } else if (suffix in decimalSuffixes) {
    exponent = decimalSuffixes[suffix];
    format = 'DecimalSI';
  } else if (/^[eE][-+]?\d+$/.test(suffix)) {
    exponent = Number(suffix.slice(1));
    format = 'DecimalExponent';
  } else {
    throw new Error(quantitySuffixError);
  }
  const negative = num.startsWith('-');
  const digits = num.replace(/^[+-]/, '');
  const [intPart, fracPart = ''] = digits.split('.');
  // value = mantissa * 10^-fracDigits * base^exponent, in nanos (rounded up away from zero).
  let numer = BigInt((intPart || '0') + fracPart) * NANO;
  let denom = 10n ** BigInt(fracPart.length);
  if (base === 2) numer *= 2n ** BigInt(exponent);
  else if (exponent >= 0) numer *= 10n ** BigInt(exponent);
  else denom *= 10n ** BigInt(-exponent);
  let nanos = numer / denom;
  if (numer % denom !== 0n) nanos += 1n;
  return { nanos: negative ? -nanos : nanos, format };
}

export function tryParseQuantity(text: unknown): Quantity | undefined {
  if (typeof text !== 'string' && typeof text !== 'number') return undefined;
  try {
    return parseQuantity(text);
  } catch {
    return undefined;
  }
}

export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.format };
}

// milliValue is Quantity.MilliValue(): the value in thousandths, rounded up.
export function milliValue(q: Quantity): bigint {
  const d = 1_000_000n;
  const v = q.nanos / d;
  return q.nanos % d !== 0n && q.nanos > 0n ? v + 1n : v;
}

// formatQuantity is Quantity.String(): the canonical form.
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  const negative = q.nanos < 0n;
  const abs = negative ? -q.nanos : q.nanos;
  const sign = negative ? '-' : '';
  let format = q.format;
  if (format === 'BinarySI' && (abs < 1024n * NANO || abs % NANO !== 0n)) format = 'DecimalSI';
  if (format === 'BinarySI') {
    let value = abs / NANO;
    let exp = 0;
    while (exp < 60 && value % 1024n === 0n) {
      value /= 1024n;
      exp += 10;
    }
    const suffix = Object.entries(binarySuffixes).find(([, e]) => e === exp)?.[0] ?? '';
    return `${sign}${value}${suffix}`;
  }
  // Decimal: mantissa * 10^exp with exp a multiple of 3 and an integer mantissa.
  let mantissa = abs;
  let exp = -9;
  while (exp < 18 && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exp += 3;
  }
  if (format === 'DecimalExponent') return exp === 0 ? `${sign}${mantissa}` : `${sign}${mantissa}e${exp}`;
  const suffix = Object.entries(decimalSuffixes).find(([, e]) => e === exp)?.[0] ?? '';
  return `${sign}${mantissa}${suffix}`;
}

// canonicalQuantity reformats a quantity string, leaving unparsable text as it is.
export function canonicalQuantity(text: unknown): unknown {
  const q = tryParseQuantity(text);
  return q ? formatQuantity(q) : text;
}
