// run.ts plays a scenario against a server: in a namespace of its own (and with a unique suffix
// ${u} for cluster-scoped names), step by step, and then deletes what it made.
import { randomInt } from 'node:crypto';
import { stringify } from 'yaml';
import { normaliseAnswer, RawAnswer } from './normalise';
import { mapStrings, renameAll, renameGroups, renameKeyPrefixes } from './rename';
import { Answer, Scenario, Step, untilConditions, UntilCondition } from './scenario';
import { OutgoingRequest, send, Target } from './transport';

// Naming says how a run names groups: `kubernetes` as recorded (the real server), `platform`
// with every name renamed (Plinth's canonical groups), `alias` with the *.k8s.io groups kept
// (Plinth's aliases) and only the `kubernetes.io/` key prefixes renamed.
export type Naming = 'kubernetes' | 'platform' | 'alias';

const requestNames: Record<Naming, (s: string) => string> = {
  kubernetes: (s) => s,
  platform: renameAll,
  alias: renameKeyPrefixes,
};

// expectedAnswer is a recorded (or documented) answer as Plinth must give it.
export function expectedAnswer(recorded: Answer): Answer {
  return mapStrings(recorded, renameAll) as Answer;
}

// actualAnswer maps an answer of an alias run onto Plinth's canonical names, which is how the
// aliases answer.
export function actualAnswer(answer: Answer, naming: Naming): Answer {
  return naming === 'alias' ? (mapStrings(answer, renameGroups) as Answer) : answer;
}

function uniqueSuffix(): string {
  return Array.from({ length: 6 }, () => String.fromCharCode(97 + randomInt(26))).join('');
}

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
}

function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}/g, (whole, name: string) => {
    if (!(name in vars)) throw new Error(`the variable ${whole} is not set (set: ${Object.keys(vars).join(', ')})`);
    return vars[name];
  });
}

// pick reads a dot path (`metadata.resourceVersion`, `items[0].metadata.name`) of a JSON value.
export function pick(value: unknown, path: string): unknown {
  return path
    .split(/\.|(?=\[)/)
    .filter(Boolean)
    .reduce<unknown>((v, part) => {
      if (v === null || typeof v !== 'object') return undefined;
      const index = /^\[(\d+)\]$/.exec(part);
      return index ? (v as unknown[])[Number(index[1])] : (v as Record<string, unknown>)[part];
    }, value);
}

export function buildRequest(step: Step, vars: Record<string, string>, naming: Naming): OutgoingRequest {
  const name = (s: string) => requestNames[naming](substitute(s, vars));
  const space = step.request.indexOf(' ');
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(step.headers ?? {})) headers[k.toLowerCase()] = name(v);
  if (step.as) headers['impersonate-user'] = name(step.as);
  if (step.groups) headers['impersonate-group'] = step.groups.map(name);
  let body: Buffer | undefined;
  if (step.raw !== undefined) body = Buffer.from(name(step.raw), 'utf8');
  else if (step.body !== undefined) {
    const type = headerOf(step.headers ?? {}, 'content-type') ?? 'application/json';
    headers['content-type'] ??= type;
    const value = mapStrings(step.body, name);
    body = Buffer.from(type.includes('yaml') ? stringify(value) : JSON.stringify(value), 'utf8');
  }
  return { method: step.request.slice(0, space), path: name(step.request.slice(space + 1)), headers, body };
}

function jsonOf(raw: RawAnswer): unknown {
  try {
    return JSON.parse(raw.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

// createdClusterObject is the path of a cluster-scoped object a step created, to delete after.
function createdClusterObject(req: OutgoingRequest, raw: RawAnswer): string | undefined {
  const path = req.path.split('?')[0];
  if (path.includes('/namespaces/') || path === '/api/v1/namespaces' || raw.status >= 300 || /reviews$/.test(path)) return undefined;
  if (req.method === 'POST') {
    const name = pick(jsonOf(raw), 'metadata.name');
    return typeof name === 'string' && name ? `${path}/${name}` : undefined;
  }
  return (req.method === 'PUT' || req.method === 'PATCH') && raw.status === 201 ? path : undefined;
}

const adminJson = { 'content-type': 'application/json' };

async function makeNamespace(target: Target, ns: string): Promise<void> {
  const made = await send(target, { method: 'POST', path: '/api/v1/namespaces', headers: adminJson, body: Buffer.from(JSON.stringify({ metadata: { name: ns } })) });
  if (made.status !== 201) throw new Error(`the scenario's namespace ${ns} was not made: ${made.status} ${made.body.toString()}`);
  // Pods need the namespace's default ServiceAccount, which a controller makes.
  for (let tries = 0; tries < 300; tries++) {
    const sa = await send(target, { method: 'GET', path: `/api/v1/namespaces/${ns}/serviceaccounts/default`, headers: {} });
    if (sa.status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the default ServiceAccount of ${ns} was never made`);
}

const untilSeconds = 10;

// holds says whether an answer meets an `until` condition.
function holds(until: UntilCondition, raw: RawAnswer): boolean {
  const value = pick(jsonOf(raw), until.path);
  if (until.present) return value !== undefined;
  return JSON.stringify(value) === JSON.stringify(until.equals);
}

// sendUntil sends a step's request, again while its `until` conditions do not all hold yet; met
// says whether they held in the end.
async function sendUntil(target: Target, req: OutgoingRequest, step: Step): Promise<{ raw: RawAnswer; met: boolean }> {
  const conditions = untilConditions(step);
  const deadline = Date.now() + Math.max(0, ...conditions.map((c) => c.seconds ?? untilSeconds)) * 1000;
  for (;;) {
    const raw = await send(target, req, step.watch);
    const met = conditions.every((condition) => holds(condition, raw));
    if (met || Date.now() > deadline) return { raw, met };
    await new Promise((r) => setTimeout(r, 100));
  }
}

// sortedItems orders the items of a JSON list answer by the value at a dot path of each (see
// Step.sortItems); any other answer is kept as it is.
export function sortedItems(raw: RawAnswer, path: string | undefined): RawAnswer {
  const list = path ? jsonOf(raw) : undefined;
  if (!list || typeof list !== 'object' || !Array.isArray((list as { items?: unknown }).items)) return raw;
  const key = (item: unknown) => JSON.stringify(pick(item, path as string) ?? null);
  const items = [...(list as { items: unknown[] }).items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { ...raw, body: Buffer.from(JSON.stringify({ ...list, items }), 'utf8') };
}

// captured is the value a capture path names: a header (`header:etag`) or a dot path of the body.
function captured(raw: RawAnswer, path: string): string {
  if (path.startsWith('header:')) return raw.headers[path.slice('header:'.length).toLowerCase()]?.[0] ?? '';
  return String(pick(jsonOf(raw), path) ?? '');
}

// anonymously is the target without the administrator's credentials (its CA kept).
function anonymously(target: Target): Target {
  return { base: target.base, ca: target.ca };
}

export interface ScenarioRun {
  answers: Answer[];
  // unique is the run's ${u}, for messages.
  unique: string;
  // unmet are the (1-based) steps whose `until` never held: the recorder refuses such a run.
  unmet: number[];
}

// runScenario plays a scenario in a namespace named `<prefix>-<suffix>`: the recorder takes a prefix
// of its own (`--prefix`) on a real server that others share.
export async function runScenario(target: Target, scenario: Scenario, naming: Naming, prefix = 'diff'): Promise<ScenarioRun> {
  const u = uniqueSuffix();
  const ns = `${prefix}-${u}`;
  const vars: Record<string, string> = { ns, u };
  const cleanup: string[] = [];
  await makeNamespace(target, ns);
  const answers: Answer[] = [];
  const unmet: number[] = [];
  const revisionHashes: string[] = [];
  try {
    for (const step of scenario.steps) {
      const req = buildRequest(step, vars, naming);
      const sent = await sendUntil(step.anonymous ? anonymously(target) : target, req, step);
      if (!sent.met) unmet.push(answers.length + 1);
      const raw = sortedItems(sent.raw, step.sortItems);
      const created = createdClusterObject(req, raw);
      if (created) cleanup.push(created);
      for (const [name, path] of Object.entries(step.capture ?? {})) vars[name] = captured(raw, path);
      const selected = step.select?.map((pointer) => requestNames[naming](substitute(pointer, vars)));
      const volatiles = { ns, u, masks: step.mask, ignored: step.ignore, selected, omitted: step.omitKeys, lines: step.lines, headers: step.compareHeaders, revisionHashes };
      answers.push(actualAnswer(normaliseAnswer(raw, volatiles), naming));
    }
  } finally {
    for (const path of cleanup.reverse()) await send(target, { method: 'DELETE', path, headers: {} }).catch(() => undefined);
    await send(target, { method: 'DELETE', path: `/api/v1/namespaces/${ns}`, headers: {} }).catch(() => undefined);
  }
  return { answers, unique: u, unmet };
}
