// Go renderings of the bad values that Kubernetes prints with %#v in field errors (v1.28
// field.Error.ErrorBody): maps, label selectors, IntOrString and small structs. Each returns a
// GoLiteral so the field error prints it verbatim. Shared by the workload and RBAC registries;
// a candidate for @plinth/machinery's go package.
import { GoLiteral } from '@plinth/machinery';

const shortEscapes: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

// goQuote is strconv.Quote, the %q and %#v rendering of a Go string.
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (shortEscapes[ch] !== undefined) out += shortEscapes[ch];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else if (printable.test(ch)) out += ch;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

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

// semanticEqual is apiequality.Semantic.DeepEqual over JSON values: nil and empty slices and
// maps are equal, as are absent and null fields.
export function semanticEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => prune(v) ?? null);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort(byteOrder)) {
      const v = prune((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value === null ? undefined : value;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(prune(value)) ?? 'null';
}
