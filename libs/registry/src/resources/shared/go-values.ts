// Go renderings of the bad values that Kubernetes prints with %#v in field errors (v1.28
// field.Error.ErrorBody): maps, label selectors, IntOrString and small structs. Each returns a
// GoLiteral so the field error prints it verbatim. Shared by the workload and RBAC registries;
// a candidate for @plinth/machinery's go package.
import { GoLiteral, goQuote } from '@plinth/machinery';

// goNull is how ErrorBody prints a nil bad value: the string "null", quoted.
export const goNull = new GoLiteral('"null"');

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// goStringMapText is %#v of a map[string]string: keys sorted, `map[string]string(nil)` for nil.
export function goStringMapText(map: Record<string, string> | null | undefined): string {
  if (map === null || map === undefined) return 'map[string]string(nil)';
  const entries = Object.entries(map).sort(([a], [b]) => byteOrder(a, b));
  return `map[string]string{${entries.map(([k, v]) => `${goQuote(k)}:${goQuote(v)}`).join(', ')}}`;
}

export function goStringMap(map: Record<string, string> | null | undefined): GoLiteral {
  return new GoLiteral(goStringMapText(map));
}

// goStringSliceText is %#v of a []string.
export function goStringSliceText(values: readonly string[] | null | undefined): string {
  if (values === null || values === undefined) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

// goInt32Slice is %#v of a []int32.
export function goInt32Slice(values: readonly number[] | null | undefined): GoLiteral {
  if (values === null || values === undefined) return new GoLiteral('[]int32(nil)');
  return new GoLiteral(`[]int32{${values.join(', ')}}`);
}

export interface LabelSelectorValue {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key?: string; operator?: string; values?: string[] | null }[] | null;
}

// goLabelSelectorText is %#v of a metav1.LabelSelector (the pointee of *LabelSelector).
export function goLabelSelectorText(selector: LabelSelectorValue): string {
  const expressions = selector.matchExpressions;
  const exprText =
    expressions === null || expressions === undefined
      ? '[]v1.LabelSelectorRequirement(nil)'
      : `[]v1.LabelSelectorRequirement{${expressions
          .map(
            (e) =>
              `v1.LabelSelectorRequirement{Key:${goQuote(e.key ?? '')}, Operator:${goQuote(e.operator ?? '')}, Values:${goStringSliceText(e.values)}}`,
          )
          .join(', ')}}`;
  return `v1.LabelSelector{MatchLabels:${goStringMapText(selector.matchLabels)}, MatchExpressions:${exprText}}`;
}

// goLabelSelector renders a *metav1.LabelSelector bad value: "null" when nil.
export function goLabelSelector(selector: LabelSelectorValue | null | undefined): GoLiteral {
  if (selector === null || selector === undefined) return goNull;
  return new GoLiteral(goLabelSelectorText(selector));
}

// goIntOrStringText is %#v of an intstr.IntOrString (Type 0 is Int, 1 is String).
export function goIntOrStringText(value: number | string | null | undefined): string {
  if (typeof value === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`;
  return `intstr.IntOrString{Type:0, IntVal:${typeof value === 'number' ? value : 0}, StrVal:""}`;
}

export function goIntOrString(value: number | string | null | undefined): GoLiteral {
  return new GoLiteral(goIntOrStringText(value));
}

// goStruct renders a struct %#v from its Go type name and already-rendered fields.
export function goStruct(typeName: string, fields: [string, string][]): GoLiteral {
  return new GoLiteral(goStructText(typeName, fields));
}

export function goStructText(typeName: string, fields: [string, string][]): string {
  return `${typeName}{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

// goBytesText is %#v of a []byte.
export function goBytesText(bytes: Uint8Array): string {
  return `[]byte{${Array.from(bytes, (b) => `0x${b.toString(16)}`).join(', ')}}`;
}

const goMonths = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

// goTimeText is time.Time's GoString of an RFC 3339 time, in the location Go holds it in:
// metav1.Time's JSON decoding keeps times in time.Local (UTC on a server, as here), a zero
// time is in time.UTC. Nanoseconds come from the fraction as written.
export function goTimeText(value: string, location: 'time.Local' | 'time.UTC'): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  const d = new Date(ms);
  const fraction = /T\d\d:\d\d:\d\d\.(\d+)/.exec(value)?.[1] ?? '';
  const nanos = Number(fraction.slice(0, 9).padEnd(9, '0'));
  const fields = [d.getUTCFullYear(), `time.${goMonths[d.getUTCMonth()]}`, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), nanos, location];
  return `time.Date(${fields.join(', ')})`;
}
