// goYamlToJson is sigs.k8s.io/yaml's YAMLToJSON as kube-apiserver 1.28 reads YAML bodies: plain
// scalars resolve as gopkg.in/yaml.v2 resolves them (YAML 1.1), then the value is written as
// JSON by encoding/json:
// - yes/Yes/YES/y/Y/on/On/ON/true/True/TRUE are true, and no/n/off/false (same cases) false;
// - ~, null, Null, NULL and the empty scalar are null;
// - integers as strconv.ParseInt(s, 0, 64) reads them after "_" is removed (0x1F, 0o17, 017,
//   0b101, +5), then as uint64, then floats of the YAML float form;
// - .inf, -.inf and .nan are floats JSON cannot hold: "json: unsupported value: +Inf";
// - a number out of float64's range (1e400) stays the string it was, as do timestamps (which
//   yaml.v2 gives back as their text).
// Quoted and block scalars are strings. Map keys resolve the same way and become their text.
import { randomUUID } from 'node:crypto';
import { Document, isMap, isScalar, isSeq, LineCounter, Node, parseDocument, ScalarTag, Tags } from 'yaml';

// YamlToJsonError is a YAML body that cannot be written as JSON.
export class YamlToJsonError extends Error {}

const resolveMap = new Map<string, unknown>();
for (const [value, words] of [
  [true, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']],
  [false, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']],
  [null, ['', '~', 'null', 'Null', 'NULL']],
  [NaN, ['.nan', '.NaN', '.NAN']],
  [Infinity, ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']],
  [-Infinity, ['-.inf', '-.Inf', '-.INF']],
] as Array<[unknown, string[]]>) {
  for (const word of words) resolveMap.set(word, value);
}

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

// parseGoInt is strconv.ParseInt(s, 0, 64) (signed: true) or ParseUint(s, 0, 64): the value (a
// bigint beyond 2^53, whose digits the JSON keeps), or undefined when Go refuses the text.
function parseGoInt(s: string, signed: boolean): number | bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const [, sign, digits] = m;
  if (!signed && sign !== '') return undefined;
  let n: bigint;
  if (/^0[oO]/.test(digits)) n = BigInt(`0o${digits.slice(2)}`);
  else if (/^0[0-7]+$/.test(digits)) n = BigInt(`0o${digits.slice(1)}`);
  else n = BigInt(digits);
  if (sign === '-') n = -n;
  const [min, max] = signed ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
  if (n < min || n > max) return undefined;
  return Number.isSafeInteger(Number(n)) ? Number(n) : n;
}

// parseGoFloat is strconv.ParseFloat(s, 64) for decimal text: undefined when out of range.
function parseGoFloat(s: string): number | undefined {
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

// resolvePlain is yaml.v2's resolve for an untagged plain scalar.
export function resolvePlain(text: string): unknown {
  if (resolveMap.has(text)) return resolveMap.get(text);
  const first = text.charAt(0);
  if (first === '.') {
    return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(text) ? parseGoFloat(text) ?? text : text;
  }
  if (!/^[-+0-9]/.test(first)) return text;
  const plain = text.replace(/_/g, '');
  const int = parseGoInt(plain, true) ?? parseGoInt(plain, false);
  if (int !== undefined) return int;
  if (yamlStyleFloat.test(plain)) return parseGoFloat(plain) ?? text;
  return text;
}

// goPlainScalar resolves every plain scalar without an explicit tag.
const goPlainScalar: ScalarTag = {
  tag: 'tag:plinth.platform.io,2026:go-yaml-plain',
  default: true,
  test: /^[\s\S]*$/,
  resolve: resolvePlain,
};

// goJsonValue is encoding/json's verdict on a float: +Inf, -Inf and NaN are unsupported.
function goJsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new YamlToJsonError(`json: unsupported value: ${Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'}`);
  }
  return value;
}

// structuralTags are the schema's tags kept: maps, sequences and explicit !!str.
const structuralTags = ['tag:yaml.org,2002:map', 'tag:yaml.org,2002:seq', 'tag:yaml.org,2002:str'];

const parseOptions = {
  merge: true,
  // yaml.v2 decodes a repeated key non-strictly: the last value wins
  uniqueKeys: false,
  customTags: (tags: Tags): Tags => [...tags.filter((t) => typeof t !== 'string' && structuralTags.includes(t.tag)), goPlainScalar],
};

export function goYamlToJson(text: string): string {
  const doc = parseDocument(text, parseOptions);
  if (doc.errors.length > 0) {
    const message = libyamlSyntaxMessage(text, doc.errors);
    throw message === null ? doc.errors[0] : new YamlToJsonError(message);
  }
  refuseCollectionKeys(doc.contents);
  const nonce = randomUUID();
  let marked = false;
  const json = JSON.stringify(doc.toJS() ?? null, (key, value: unknown) => {
    if (typeof value !== 'bigint') return goJsonValue(key, value);
    marked = true;
    return `\u0000${nonce}:${value}`;
  });
  // an integer beyond 2^53 is written with its digits (JSON.stringify writes the NUL as \u0000)
  return marked ? json.replace(new RegExp(`"\\\\u0000${nonce}:(-?\\d+)"`, 'g'), '$1') : json;
}

const unclosedFlow = /^Flow (sequence|map) in block collection must be sufficiently indented and end with a ([\]}])/;

// libyamlSyntaxMessage words a syntax error as yaml.v2 (libyaml) does, where its wording is
// known, or gives null. A flow sequence or mapping left open runs to the end of the stream,
// where the parser misses its end: "yaml: line <n>: did not find expected ',' or ']'", n being
// the stream end's line counted from 0 (the line after a last line that ends without a newline).
export function libyamlSyntaxMessage(text: string, errors: readonly Error[]): string | null {
  const unclosed = errors.length === 1 ? unclosedFlow.exec(errors[0].message) : null;
  if (!unclosed) return null;
  const lines = text.split('\n');
  const streamEndLine = lines.length - 1 + (lines[lines.length - 1] === '' ? 0 : 1);
  const where = streamEndLine > 0 ? `line ${streamEndLine}: ` : '';
  return `yaml: ${where}did not find expected ',' or '${unclosed[2]}'`;
}

// refuseCollectionKeys is yaml.v2's refusal of a sequence or a mapping as a map key (it cannot
// be a Go map key): "yaml: invalid map key: []interface {}{"a", "b"}".
function refuseCollectionKeys(node: unknown): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (isMap(pair.key) || isSeq(pair.key)) throw new YamlToJsonError(`yaml: invalid map key: ${goSharpV((pair.key as Node).toJS(new Document()))}`);
      refuseCollectionKeys(pair.value);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) refuseCollectionKeys(item);
  }
}

// goYamlStrictError is the error yaml.v2's strict decoding gives (sigs.k8s.io/yaml's
// YAMLToJSONStrict), or null: every key repeated in a map, by the line of the repetition.
//   yaml: unmarshal errors:
//     line 4: key "a" already set in map
export function goYamlStrictError(text: string): string | null {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...parseOptions, lineCounter });
  const repeated: string[] = [];
  const visit = (node: unknown): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const id = `${typeof key}:${String(key)}`;
        if (seen.has(id)) {
          const offset = (pair.key as Node | null)?.range?.[0] ?? 0;
          repeated.push(`line ${lineCounter.linePos(offset).line}: key ${goSharpV(key)} already set in map`);
        }
        seen.add(id);
        visit(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item);
    }
  };
  visit(doc.contents);
  return repeated.length > 0 ? `yaml: unmarshal errors:\n  ${repeated.join('\n  ')}` : null;
}

// goSharpV is %#v of a resolved YAML key: strings quoted, nil as <nil>.
function goSharpV(key: unknown): string {
  if (typeof key === 'string') return JSON.stringify(key);
  if (key === null || key === undefined) return '<nil>';
  if (Array.isArray(key)) return `[]interface {}{${key.map(goSharpV).join(', ')}}`;
  if (typeof key === 'object') {
    const entries = Object.entries(key as Record<string, unknown>).map(([k, v]) => `${goSharpV(k)}:${goSharpV(v)}`);
    return `map[interface {}]interface {}{${entries.join(', ')}}`;
  }
  return String(key);
}
