// scenario.ts is the differential suite's format: an area file (scenarios/<area>.yaml) holds
// scenarios, each a sequence of requests written with the real Kubernetes group names; the
// answers a real kube-apiserver gave are kept beside it (scenarios/<area>.recorded.json).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const scenariosDir = join(__dirname, 'scenarios');

// WatchRead bounds how a watch step reads its stream: until `events` events, the stream's end,
// or `seconds` seconds, whichever comes first.
export interface WatchRead {
  events?: number;
  seconds?: number;
}

export interface UntilCondition {
  path: string;
  equals?: unknown;
  present?: boolean;
  seconds?: number;
}

export interface Step {
  // request is "METHOD /path?query" (or "METHOD ${captured}", a path a step captured).
  request: string;
  headers?: Record<string, string>;
  // body is encoded as JSON, or as YAML when the Content-Type says YAML; raw is sent as written.
  body?: unknown;
  raw?: string;
  // as impersonates a user (Impersonate-User), groups adds Impersonate-Group headers.
  as?: string;
  groups?: string[];
  watch?: WatchRead;
  // until repeats a step without side effects (a review, a read) until the value at path of its
  // answer equals the given one, or `seconds` (10 by default) passed: the real server's
  // authorizer sees new RBAC objects through an informer, a moment after they are written, and
  // controllers act at their own pace. Without `equals`, until the path is absent (a controller
  // took an ownerReference off), or with `present: true` until it is there (a Job's
  // completionTime). `items.length` counts a list's items. A list of conditions waits until all
  // hold (the longest `seconds` bounds it).
  until?: UntilCondition | UntilCondition[];
  // sortItems orders a list answer's items by the value at this dot path of each item
  // (`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]`,
  // the Node a DaemonSet's pod is for) before anything is captured or compared: a list is in
  // name order, and names made from generateName order the items at random.
  sortItems?: string;
  // capture names values of the answer's body (dot paths, [i] for items), or a header
  // (`header:etag`), for later steps: ${name}.
  capture?: Record<string, string>;
  // compare: "status" checks only the status code (a setup step whose answer is not the point).
  compare?: 'all' | 'status';
  // mask lists regular expressions whose matches in the answer's strings are volatile (the real
  // server's own state, such as its current resourceVersion in a message).
  mask?: string[];
  // ignore lists JSON pointers (into the body, or each watch event's object) of members the
  // real server's controllers write at their own pace (a Node's TTL annotation); they are
  // removed from both answers.
  ignore?: string[];
  // select keeps only these parts of a JSON or YAML body, each under its own pointer as key: JSON
  // pointers in which a segment `[key=value]` names the element of an array whose member at
  // `key` (a dot path) equals value (`/resources/[name=jobs]`, `/items/[metadata.name=batch]`).
  // For documents where Plinth serves less than kube-apiserver (discovery, OpenAPI) the parts
  // both serve are compared.
  select?: string[];
  // omitKeys removes, at any depth of the (selected) body, the members whose names match these
  // patterns (`*` for any characters): prose Plinth words otherwise (`description`) and the
  // x-platform-* twins Document 1 names beside kube-apiserver's x-kubernetes-* extensions.
  omitKeys?: string[];
  // lines keeps only the lines of a text body that match one of these regular expressions
  // (health checks both servers run, in their order).
  lines?: string[];
  // headers names response headers compared besides the kept ones (ETag, Cache-Control, Vary).
  compareHeaders?: string[];
  // anonymous sends the request without credentials.
  anonymous?: boolean;
  // documented replaces the recorded answer of a step of a `known` scenario: what Documents 1/2
  // require where they say otherwise than Kubernetes.
  documented?: Partial<Answer>;
}

export interface Scenario {
  name: string;
  // known names the section of Document 1 or 2 that makes Plinth's answer differ from
  // Kubernetes'; the scenario then expects the `documented` answers of its steps.
  known?: string;
  steps: Step[];
}

// ServerSettings are the flags an area's server runs with, the same on both sides: the real
// kube-apiserver its recording was made against, and the Plinth the suite starts for it
// (server-flags.ts). An area without them runs against servers with default flags.
export interface ServerSettings {
  // runtimeConfig are --runtime-config entries (`batch/v1`, `api/all`, `apps/v1/daemonsets`),
  // with Kubernetes' group names; true serves, false does not.
  runtimeConfig?: Record<string, boolean>;
  // featureGates are --feature-gates entries.
  featureGates?: Record<string, boolean>;
  // kubeApiserverOnly are flags only the real kube-apiserver is given: what it cannot start
  // without for parts Plinth does not have (priority and fairness, the groups its own
  // controllers need), which no answer of the area may depend on.
  kubeApiserverOnly?: string[];
}

export interface AreaFile {
  area: string;
  file: string;
  server?: ServerSettings;
  // controllers says the scenarios read what controllers do (the pods a Job makes, its status):
  // the all-in-one runs the Job, DaemonSet, TTL-after-finished and garbage-collector controllers
  // beside its server, without the node simulator, as the distributed form's controller manager
  // runs (`--simulated-nodes 0`) and the real server's kube-controller-manager without a
  // scheduler and kubelets: pods stay Pending and unbound until a step writes their status.
  controllers?: boolean;
  scenarios: Scenario[];
}

// Answer is what a step's request got, normalised (see normalise.ts): the status code, the
// headers that carry meaning, and the body as JSON, text, watch events or binary.
export interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  json?: unknown;
  // yaml is a YAML body, parsed.
  yaml?: unknown;
  text?: string;
  events?: unknown[];
  // ended says the server ended the watch stream within the read's bounds.
  ended?: boolean;
  // binary is a body that is neither JSON nor text (protobuf): its length class and first bytes.
  binary?: { prefix: string };
}

export type Recording = Record<string, Answer[]>;

// Form is the form of Plinth a scenario runs against: the all-in-one, or the distributed one
// (gateway, storage over etcd, authz over NATS, controller manager).
export type Form = 'all-in-one' | 'distributed';
export const forms: readonly Form[] = ['all-in-one', 'distributed'];

// Pending lists, per area, the scenarios Plinth still answers otherwise than kube-apiserver,
// each with the class of the difference: for the naming(s) given (a reason alone: both), in the
// form(s) given (`{all-in-one: ..., distributed: ...}` around the reason for one form only;
// without it, both), the suite asserts that they still differ, so that a fix has to take them
// off the list.
export type NamingEntry = string | Partial<Record<'platform' | 'alias', string>>;
export type PendingEntry = NamingEntry | Partial<Record<Form, NamingEntry>>;
export type Pending = Record<string, Record<string, PendingEntry>>;

export const pendingPath = join(__dirname, 'pending.yaml');

export function loadPending(): Pending {
  return existsSync(pendingPath) ? ((parse(readFileSync(pendingPath, 'utf8')) as Pending | null) ?? {}) : {};
}

const namingKeys = ['platform', 'alias'];

function isFormEntry(entry: PendingEntry): entry is Partial<Record<Form, NamingEntry>> {
  return typeof entry === 'object' && Object.keys(entry).some((key) => (forms as readonly string[]).includes(key));
}

// pendingReason is why a scenario still differs in a form under a naming, or undefined when it
// must match.
export function pendingReason(pending: Pending, area: string, scenario: string, form: Form, naming: string): string | undefined {
  const entry = pending[area]?.[scenario];
  if (entry === undefined) return undefined;
  const ofForm = isFormEntry(entry) ? entry[form] : entry;
  if (ofForm === undefined || typeof ofForm === 'string') return ofForm;
  return ofForm[naming as 'platform' | 'alias'];
}

// pendingErrors lists what is wrong with pending.yaml: a scenario that does not exist, a key
// that is neither a form nor a naming, a reason that is not text.
export function pendingErrors(pending: Pending, areas: AreaFile[]): string[] {
  const errors: string[] = [];
  const namingErrors = (where: string, entry: NamingEntry) => {
    if (typeof entry === 'string') return;
    if (entry === null || typeof entry !== 'object') return errors.push(`${where}: not a reason`);
    for (const [key, reason] of Object.entries(entry)) {
      if (!namingKeys.includes(key)) errors.push(`${where}: ${key} is neither a form (${forms.join(', ')}) nor a naming (${namingKeys.join(', ')})`);
      else if (typeof reason !== 'string') errors.push(`${where}: the ${key} reason is not text`);
    }
  };
  for (const [area, entries] of Object.entries(pending)) {
    const scenarios = areas.find((a) => a.area === area)?.scenarios ?? [];
    for (const [name, entry] of Object.entries(entries ?? {})) {
      const where = `pending.yaml: ${area}: "${name}"`;
      if (!scenarios.some((s) => s.name === name)) errors.push(`${where} is no scenario`);
      if (entry !== null && isFormEntry(entry)) {
        for (const [form, ofForm] of Object.entries(entry)) {
          if ((forms as readonly string[]).includes(form)) namingErrors(`${where} ${form}`, ofForm as NamingEntry);
          else errors.push(`${where}: ${form} is mixed with a form's entry (give every form its own)`);
        }
      } else namingErrors(where, entry);
    }
  }
  return errors;
}

const stepKeys = new Set(['request', 'headers', 'body', 'raw', 'as', 'groups', 'watch', 'until', 'sortItems', 'capture', 'compare', 'mask', 'ignore', 'select', 'omitKeys', 'lines', 'compareHeaders', 'anonymous', 'documented']);

// untilConditions are the conditions a step's `until` waits for (none without it).
export function untilConditions(step: Step): UntilCondition[] {
  if (!step.until) return [];
  return Array.isArray(step.until) ? step.until : [step.until];
}

const untilKeys = new Set(['path', 'equals', 'present', 'seconds']);

const serverKeys = new Set(['runtimeConfig', 'featureGates', 'kubeApiserverOnly']);

// formatErrors lists what is wrong with an area file, so that a typo fails loudly instead of
// quietly testing less.
export function formatErrors(area: AreaFile): string[] {
  const errors: string[] = [];
  for (const key of Object.keys(area.server ?? {})) if (!serverKeys.has(key)) errors.push(`${area.file}: server: unknown key ${key}`);
  const names = new Set<string>();
  for (const s of area.scenarios) {
    const where = `${area.file}: "${s.name}"`;
    if (!s.name) errors.push(`${area.file}: a scenario without a name`);
    if (names.has(s.name)) errors.push(`${where}: the name is used twice`);
    names.add(s.name);
    if (!Array.isArray(s.steps) || s.steps.length === 0) errors.push(`${where}: no steps`);
    const documented = (s.steps ?? []).some((step) => step.documented);
    if (s.known !== undefined && !documented) errors.push(`${where}: known without a documented answer`);
    if (s.known === undefined && documented) errors.push(`${where}: a documented answer without known`);
    for (const [i, step] of (s.steps ?? []).entries()) {
      for (const key of Object.keys(step)) if (!stepKeys.has(key)) errors.push(`${where} step ${i + 1}: unknown key ${key}`);
      if (!/^[A-Z]+ (\/|\$\{)\S*$/.test(step.request ?? '')) errors.push(`${where} step ${i + 1}: request must be "METHOD /path"`);
      if (step.body !== undefined && step.raw !== undefined) errors.push(`${where} step ${i + 1}: body and raw both given`);
      for (const condition of untilConditions(step)) {
        for (const key of Object.keys(condition)) if (!untilKeys.has(key)) errors.push(`${where} step ${i + 1}: until: unknown key ${key}`);
      }
    }
  }
  return errors;
}

export function loadArea(file: string): AreaFile {
  const parsed = parse(readFileSync(file, 'utf8')) as { area: string; server?: ServerSettings; controllers?: boolean; scenarios: Scenario[] };
  return { area: parsed.area, file, server: parsed.server, controllers: parsed.controllers, scenarios: parsed.scenarios ?? [] };
}

// areaFiles lists the scenario files, all or those named (by area or path).
export function areaFiles(only: string[] = []): string[] {
  const all = readdirSync(scenariosDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(scenariosDir, f));
  if (only.length === 0) return all;
  return all.filter((f) => only.some((o) => f.endsWith(`/${o}.yaml`) || f.endsWith(o)));
}

export function recordingPath(file: string): string {
  return file.replace(/\.yaml$/, '.recorded.json');
}

export function loadRecording(file: string): Recording {
  const path = recordingPath(file);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Recording) : {};
}
