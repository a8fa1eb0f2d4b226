// normalise.ts turns a raw HTTP answer into an Answer in which only facts remain: the
// scenario's namespace and unique suffix become ${ns} and ${u}, and volatile values (uids, times,
// resourceVersions, continue tokens, generated names, allocated IPs and ports) become
// placeholders that keep only whether the value was there.
import { parseAllDocuments } from 'yaml';
import { Answer } from './scenario';

// keptHeaders are the response headers a client acts on.
const keptHeaders = ['content-type', 'content-encoding', 'warning', 'retry-after'];

export interface RawAnswer {
  status: number;
  // headers as received, each name lower-cased with all its values.
  headers: Record<string, string[]>;
  body: Buffer;
  // events and ended are set for a watch read as a stream.
  events?: unknown[];
  ended?: boolean;
}

export interface Volatiles {
  ns: string;
  u: string;
  // masks are regular expressions (from the step) whose matches are volatile.
  masks?: string[];
  // ignored are JSON pointers of members to remove.
  ignored?: string[];
  // selected are the pointers of the body's parts kept (see Step.select); lines the patterns of
  // the text lines kept; headers the response headers compared besides keptHeaders.
  selected?: string[];
  // omitted are patterns of member names removed at any depth of the selected parts.
  omitted?: string[];
  lines?: string[];
  headers?: string[];
  // revisionHashes are the controller-revision-hash values the scenario's answers showed so far,
  // in order of appearance (shared by its steps): each becomes `<hash-N>` wherever it appears.
  revisionHashes?: string[];
}

// withoutIgnored removes the members (or array elements) that JSON pointers name
// (`/metadata/annotations/a~1b`, `/x-kubernetes-group-version-kind/1`).
function withoutIgnored(value: unknown, pointers: string[] = []): unknown {
  for (const pointer of pointers) {
    const path = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let parent: unknown = value;
    for (const key of path.slice(0, -1)) parent = isObject(parent) || Array.isArray(parent) ? (parent as Record<string, unknown>)[key] : undefined;
    const last = path[path.length - 1];
    if (isObject(parent)) delete parent[last];
    else if (Array.isArray(parent) && /^\d+$/.test(last)) parent.splice(Number(last), 1);
  }
  return value;
}

// withoutKeys removes, at any depth, the members whose names match one of the patterns (`*`
// standing for any characters).
function withoutKeys(value: unknown, patterns: string[] | undefined): unknown {
  if (!patterns) return value;
  const omitted = patterns.map((p) => new RegExp(`^${p.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`));
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!isObject(v)) return v;
    return Object.fromEntries(Object.entries(v).filter(([k]) => !omitted.some((re) => re.test(k))).map(([k, x]) => [k, strip(x)]));
  };
  return strip(value);
}

// memberAt reads a dot path of a value.
function memberAt(value: unknown, dotPath: string): unknown {
  return dotPath.split('.').reduce<unknown>((v, key) => (isObject(v) ? v[key] : undefined), value);
}

// selectSegments splits a pointer of Step.select, a `[key=value]` segment whole (its value may
// hold a slash, written as is or escaped: `[name=jobs/status]`, `[name=jobs~1status]`).
function selectSegments(pointer: string): string[] {
  return (pointer.match(/\[[^\]]*\]|[^/]+/g) ?? []).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

// partAt reads a pointer of Step.select: a segment `[key=value]` picks the array element whose
// member at the dot path key equals value.
export function partAt(value: unknown, pointer: string): unknown {
  return selectSegments(pointer).reduce<unknown>((v, segment) => {
    const filter = /^\[([^=\]]+)=(.*)\]$/.exec(segment);
    if (filter) return Array.isArray(v) ? v.find((element) => String(memberAt(element, filter[1])) === filter[2]) : undefined;
    if (Array.isArray(v)) return /^\d+$/.test(segment) ? v[Number(segment)] : undefined;
    return isObject(v) ? v[segment] : undefined;
  }, value);
}

// selectedParts keeps the parts a step selects, each under its pointer.
function selectedParts(value: unknown, pointers: string[] | undefined, omitted: string[] | undefined): unknown {
  if (!pointers) return withoutKeys(value, omitted);
  return Object.fromEntries(pointers.map((p) => [p, withoutKeys(partAt(value, p), omitted)]));
}

function selectedLines(text: string, patterns: string[] | undefined): string {
  if (!patterns) return text;
  const kept = patterns.map((p) => new RegExp(p));
  return text
    .split('\n')
    .filter((line) => kept.some((re) => re.test(line)))
    .join('\n');
}

const time = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g;
const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const serviceAccountVolume = /\bkube-api-access-[a-z0-9]{5}\b/g;
// Go's %#v of an object in a message prints times, pointers and resourceVersions.
const goTime = /time\.Date\(\d+, time\.\w+, [\d, ]+, time\.(UTC|Local)\)/g;
const goPointer = /\(0xc[0-9a-f]+\)/g;
const embeddedResourceVersion = /(resourceVersion\\?"\s*:\s*\\?"|ResourceVersion:\\?")\d+/g;
// A precondition's conflict names the stored object's resourceVersion.
const recordedResourceVersion = /(the ResourceVersion in record \()\d+\)/g;

// volatileKeys map a key to its placeholder when it holds a non-empty value.
const volatileKeys: Record<string, string> = {
  resourceVersion: '<rv>',
  continue: '<continue>',
  clusterIP: '<ip>',
  nodePort: '<port>',
  healthCheckNodePort: '<port>',
};

// The label a controller gives its pods and revisions: kube-controller-manager hashes Go's
// printing of the template, Plinth its canonical JSON, so only which values are equal is compared.
const revisionHashLabel = 'controller-revision-hash';

// collectRevisionHashes appends the revision hashes a value shows (the label's values) that are
// not known yet, in document order.
function collectRevisionHashes(value: unknown, hashes: string[]): void {
  if (Array.isArray(value)) value.forEach((x) => collectRevisionHashes(x, hashes));
  if (!isObject(value)) return;
  for (const [k, x] of Object.entries(value)) {
    if (k === revisionHashLabel && typeof x === 'string' && x !== '' && !hashes.includes(x)) hashes.push(x);
    else collectRevisionHashes(x, hashes);
  }
}

function withRevisionHashes(s: string, hashes: string[] | undefined): string {
  let out = s;
  (hashes ?? []).forEach((hash, i) => {
    out = out.replace(new RegExp(`(?<![A-Za-z0-9])${hash}(?![A-Za-z0-9])`, 'g'), `<hash-${i + 1}>`);
  });
  return out;
}

export function normaliseString(s: string, v: Volatiles): string {
  let out = withRevisionHashes(s.split(v.ns).join('${ns}').split(v.u).join('${u}'), v.revisionHashes);
  for (const m of v.masks ?? []) out = out.replace(new RegExp(m, 'g'), '<masked>');
  return out
    .replace(time, '<time>')
    .replace(uuid, '<uid>')
    .replace(serviceAccountVolume, 'kube-api-access-<gen>')
    .replace(goTime, 'time.Date(<time>)')
    .replace(goPointer, '(<ptr>)')
    .replace(embeddedResourceVersion, '$1<rv>')
    .replace(recordedResourceVersion, '$1<rv>)');
}

function isObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

export function normaliseValue(value: unknown, v: Volatiles): unknown {
  if (typeof value === 'string') return normaliseString(value, v);
  if (Array.isArray(value)) return value.map((x) => normaliseValue(x, v));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(value)) {
    const placeholder = volatileKeys[k];
    if (placeholder && x !== '' && x !== 'None' && x !== null && x !== undefined && (typeof x === 'string' || typeof x === 'number')) out[k] = placeholder;
    else if (k === 'clusterIPs' && Array.isArray(x)) out[k] = x.map((ip) => (ip === 'None' ? ip : '<ip>'));
    else out[normaliseString(k, v)] = normaliseValue(x, v);
  }
  const meta = out.metadata;
  if (isObject(meta) && typeof meta.generateName === 'string' && typeof meta.name === 'string' && meta.name.startsWith(meta.generateName)) {
    meta.name = `${meta.generateName}<gen>`;
  }
  return out;
}

function headerValues(raw: RawAnswer, v: Volatiles): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name of [...keptHeaders, ...(v.headers ?? []).map((h) => h.toLowerCase())]) {
    const values = raw.headers[name];
    if (!values) continue;
    const normalised = values.map((x) => normaliseString(x, v));
    out[name] = name === 'warning' ? normalised : normalised.join(', ');
  }
  return out;
}

function looksBinary(body: Buffer): boolean {
  return body.includes(0) || !Buffer.from(body.toString('utf8'), 'utf8').equals(body);
}

export function normaliseAnswer(raw: RawAnswer, v: Volatiles): Answer {
  const answer: Answer = { status: raw.status, headers: headerValues(raw, v) };
  if (raw.events) {
    answer.events = raw.events.map((e) => {
      if (isObject(e)) withoutIgnored(e.object, v.ignored);
      if (v.revisionHashes) collectRevisionHashes(e, v.revisionHashes);
      return normaliseValue(e, v);
    });
    answer.ended = raw.ended;
    return answer;
  }
  if (raw.body.length === 0) return answer;
  if (looksBinary(raw.body)) {
    answer.binary = { prefix: raw.body.subarray(0, 4).toString('hex') };
    return answer;
  }
  const text = raw.body.toString('utf8');
  const type = raw.headers['content-type']?.[0] ?? '';
  if (type.includes('yaml')) {
    const docs = parseAllDocuments(text);
    if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) answer.text = normaliseString(text, v);
    else answer.yaml = normaliseValue(comparedParts(docs.length === 1 ? docs[0].toJSON() : docs.map((d) => d.toJSON()), v), v);
    return answer;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    answer.text = normaliseString(selectedLines(text, v.lines), v);
    return answer;
  }
  answer.json = normaliseValue(comparedParts(parsed, v), v);
  return answer;
}

// comparedParts is what of a parsed body is compared: without the ignored members, the selected
// parts; their revision hashes are known from here on.
function comparedParts(body: unknown, v: Volatiles): unknown {
  const parts = selectedParts(withoutIgnored(body, v.ignored), v.selected, v.omitted);
  if (v.revisionHashes) collectRevisionHashes(parts, v.revisionHashes);
  return parts;
}

// withManagedFieldsInOrder orders every managedFields list of a normalised value by operation,
// manager and subresource. kube-apiserver orders the entries by operation, then by the second of
// their time, then by manager: entries a controller writes in the same second as the create sort
// by manager name, a second later by time, so between two servers the order follows timing
// alone once times are normalised (a scenario's second apply a second after the first moves its
// entry behind the others). Every answer is compared in this order; the rule itself is
// libs/apply's to test.
export function withManagedFieldsInOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withManagedFieldsInOrder);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(value)) {
    out[k] = k === 'managedFields' && Array.isArray(x) ? [...x].sort(byEntryKey).map(withManagedFieldsInOrder) : withManagedFieldsInOrder(x);
  }
  return out;
}

function entryKey(entry: unknown): string {
  const e = isObject(entry) ? entry : {};
  return [e.operation, e.manager, e.subresource].map((part) => String(part ?? '')).join('\u0000');
}

function byEntryKey(a: unknown, b: unknown): number {
  return entryKey(a) < entryKey(b) ? -1 : entryKey(a) > entryKey(b) ? 1 : 0;
}
