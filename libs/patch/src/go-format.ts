// Go's fmt verbs for decoded JSON, as the strategic merge patch errors of Kubernetes print them:
// a map[string]interface{} with %v is `map[a:1 b:[x y]]` (keys sorted), a nil is `<nil>`, and a
// number is an int64 when it has no fraction (json.Unmarshal with PreserveInts), else a float64.
import { isObject } from './json';

// goTypeName is reflect.TypeOf(v).String() for a decoded JSON value; a nil has no type, and
// printing that nil reflect.Type with %s gives `%!s(<nil>)`.
export function goTypeName(value: unknown): string {
  if (Array.isArray(value)) return '[]interface {}';
  if (isObject(value)) return 'map[string]interface {}';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64';
    case 'boolean':
      return 'bool';
    default:
      return '%!s(<nil>)';
  }
}

// goFloat is strconv.FormatFloat(f, 'g', -1, 64), which is what %v prints for a float64.
function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

function byCodePoint(a: string, b: string): number {
  const ca = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const cb = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) if (ca[i] !== cb[i]) return ca[i] - cb[i];
  return ca.length - cb.length;
}

// goSprint prints a decoded JSON value with %v or %s. Under %s a non-string scalar is a "bad
// verb" (`%!s(int64=1)`), exactly as fmt reports it.
export function goSprint(value: unknown, verb: 'v' | 's' = 'v'): string {
  if (Array.isArray(value)) return `[${value.map((v) => goSprint(v, verb)).join(' ')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort(byCodePoint);
    return `map[${keys.map((k) => `${k}:${goSprint(value[k], verb)}`).join(' ')}]`;
  }
  if (typeof value === 'string') return value;
  let text: string;
  if (typeof value === 'number') text = Number.isInteger(value) ? String(value) : goFloat(value);
  else if (typeof value === 'boolean') text = String(value);
  else return verb === 'v' ? '<nil>' : '%!s(<nil>)';
  return verb === 'v' ? text : `%!s(${goTypeName(value)}=${text})`;
}
