// goQuantityText is Go's %#v of the resource.Quantity that ParseQuantity (v1.28) makes of a
// quantity string: an int64Amount when the value fits (keeping the text as its cached string
// when it is in canonical form), else an inf.Dec behind a pointer.
import { goQuote } from '@plinth/machinery';

const binaryExponents: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalExponents: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const maxInt64Factors = 18;
const maxInt64 = 2n ** 63n - 1n;

interface ParsedText {
  positive: boolean;
  num: string;
  denom: string;
  exponent: number;
  format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
}

// parseText splits a quantity as parseQuantityString does: sign, integer digits without leading
// zeros, fraction digits, and the suffix's exponent and format.
function parseText(text: string): ParsedText | null {
  const m = /^([+-]?)0*(\d*)(?:\.(\d*))?([a-zA-Z]*[-+]?\d*)$/.exec(text);
  if (!m) return null;
  const [, sign, digits, denom = '', suffix] = m;
  let exponent: number;
  let format: ParsedText['format'];
  if (suffix in binaryExponents) [exponent, format] = [binaryExponents[suffix], 'BinarySI'];
  else if (suffix in decimalExponents) [exponent, format] = [decimalExponents[suffix], 'DecimalSI'];
  else if (/^[eE][-+]?\d+$/.test(suffix)) [exponent, format] = [Number(suffix.slice(1)), 'DecimalExponent'];
  else return null;
  return { positive: sign !== '-', num: digits === '' ? '0' : digits, denom, exponent, format };
}

function quantityLiteral(value: string, scale: number, dec: string, s: string, format: string): string {
  return `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:${dec}}, s:${goQuote(s)}, Format:${goQuote(format)}}`;
}

export function goQuantityText(value: unknown): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  if (text === '0') return quantityLiteral('0', 0, '(*inf.Dec)(nil)', '0', 'DecimalSI');
  const parsed = parseText(text);
  if (!parsed) return quantityLiteral('0', 0, '(*inf.Dec)(nil)', '', '');
  const { positive, num, denom, exponent, format } = parsed;
  let scale = format === 'BinarySI' ? 0 : exponent;
  let mantissa = 1n;
  let precision = format === 'BinarySI' ? -1 : maxInt64Factors - (num.length + denom.length);
  if (format === 'BinarySI' && exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = num + denom;
      const base = BigInt(shifted);
      const result = base * mantissa;
      if (result <= maxInt64) {
        const signed = positive ? result : -result;
        const canonical =
          format === 'BinarySI' ? exponent % 10 === 0 && (base & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return quantityLiteral(String(signed), scale, '(*inf.Dec)(nil)', canonical ? text : '', format);
      }
    }
  }
  return quantityLiteral('0', 0, '(*inf.Dec)(0xc000010000)', '', format);
}
