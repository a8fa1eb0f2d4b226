// sessions.ts runs the stock kubectl sessions (sessions.yaml) against a server and writes what
// kubectl printed as a transcript, normalised (normalise.ts): the same text from
// kube-apiserver 1.28.7 (the recorded fixtures under testdata/stock/) and from Plinth.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { eventually } from '@plinth/testing';
import { normaliseOutput, reflow } from './normalise';

export interface Step {
  // kubectl is the command line after `kubectl`, split as a shell splits it (quotes, no
  // expansion); `${name}` is a value an earlier step captured.
  kubectl: string;
  stdin?: string;
  // env is added to kubectl's environment (EDITOR for kubectl edit).
  env?: Record<string, string>;
  // capture names the step's trimmed stdout for later steps.
  capture?: string;
  // until repeats the step (for what a controller does in its own time) until its normalised
  // stdout matches this pattern.
  until?: string;
  // mask are patterns of what differs by the server's own configuration (the admin's name).
  mask?: string[];
  // drop are patterns of what kubectl prints only from what Plinth does not serve (the spec's
  // choice, said beside each): removed from both outputs.
  drop?: string[];
  // watch runs the command in the background: once it printed its first line, `then` runs (not
  // recorded), and the step records the first `lines` lines it printed.
  watch?: { then: string; lines: number };
}

export interface Session {
  name: string;
  // namespace is the kubeconfig context's namespace; steps create and delete it themselves.
  namespace: string;
  steps: Step[];
  // cleanup runs after the steps, unrecorded and failures ignored (a real server others share
  // keeps nothing of a session).
  cleanup?: string[];
}

export interface KubectlRun {
  code: number | 'watch';
  stdout: string;
  stderr: string;
}

export const sessionsFile = join(__dirname, 'sessions.yaml');
export const fixturesDir = join(__dirname, '..', 'testdata', 'stock');

export function loadSessions(): Session[] {
  return (parse(readFileSync(sessionsFile, 'utf8')) as { sessions: Session[] }).sessions;
}

// splitWords splits a command line as sh does for words in quotes (no variables, no escapes
// but in double quotes).
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated ${c} in ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

// sessionKubeconfig writes a kubeconfig of the server's admin with the same names on every
// server (`config view` prints them) and the session's namespace.
export function sessionKubeconfig(adminKubeconfig: string, dir: string, session: Session): string {
  const source = parse(readFileSync(adminKubeconfig, 'utf8'));
  const current = source.contexts.find((c: { name: string }) => c.name === source['current-context']).context;
  const cluster = source.clusters.find((c: { name: string }) => c.name === current.cluster).cluster;
  const user = source.users.find((u: { name: string }) => u.name === current.user).user;
  const path = join(dir, `${session.name}.kubeconfig`);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'stock', cluster }],
    users: [{ name: 'stock-admin', user }],
    contexts: [{ name: 'stock', context: { cluster: 'stock', user: 'stock-admin', namespace: session.namespace } }],
    'current-context': 'stock',
  };
  writeFileSync(path, stringify(config));
  return path;
}

export class SessionRunner {
  private readonly vars = new Map<string, string>();

  constructor(
    private readonly kubeconfig: string,
    private readonly cacheDir: string,
  ) {}

  // transcript runs every step and returns what each printed, normalised.
  async transcript(session: Session): Promise<string> {
    const parts: string[] = [];
    for (const step of session.steps) parts.push(await this.record(step));
    return parts.join('\n');
  }

  async cleanup(session: Session): Promise<void> {
    for (const line of session.cleanup ?? []) await this.run(splitWords(line), {});
  }

  private async record(step: Step): Promise<string> {
    const line = this.substitute(step.kubectl);
    let result: KubectlRun;
    if (step.watch) result = await this.watch(splitWords(line), step.watch);
    else if (step.until) {
      const pattern = new RegExp(step.until);
      result = await eventually(() => this.run(splitWords(line), step), { until: (r) => pattern.test(normaliseOutput(r.stdout, step.mask, step.drop)), what: `kubectl ${line} printing ${pattern}`, timeoutMs: 60000 });
    } else result = await this.run(splitWords(line), step);
    if (step.capture) this.vars.set(step.capture, result.stdout.trim());
    return formatRun(normaliseOutput(`kubectl ${line}`), result, step);
  }

  private substitute(text: string): string {
    return text.replace(/\$\{(\w+)\}/g, (_, name: string) => {
      const value = this.vars.get(name);
      if (value === undefined) throw new Error(`nothing captured as ${name}`);
      return value;
    });
  }

  private spawn(args: string[], env: Record<string, string> = {}) {
    mkdirSync(this.cacheDir, { recursive: true });
    return spawn('/usr/bin/kubectl', ['--kubeconfig', this.kubeconfig, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, KUBECACHEDIR: this.cacheDir, ...env } });
  }

  private run(args: string[], step: Pick<Step, 'stdin' | 'env'>): Promise<KubectlRun> {
    return new Promise((resolve, reject) => {
      const child = this.spawn(args, step.env);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 90000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code: code ?? -1, stdout, stderr });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(step.stdin === undefined ? '' : this.substitute(step.stdin));
    });
  }

  private async watch(args: string[], watch: { then: string; lines: number }): Promise<KubectlRun> {
    const child = this.spawn(args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end();
    const lines = () => stdout.split('\n').slice(0, -1);
    try {
      await eventually(() => lines().length, { until: (n) => n > 0, what: `kubectl ${args.join(' ')} printing a line`, timeoutMs: 30000 });
      await this.run(splitWords(this.substitute(watch.then)), {});
      await eventually(() => lines().length, { until: (n) => n >= watch.lines, what: `kubectl ${args.join(' ')} printing ${watch.lines} lines`, timeoutMs: 30000 });
    } finally {
      child.kill('SIGTERM');
    }
    return { code: 'watch', stdout: lines().slice(0, watch.lines).join('\n') + '\n', stderr };
  }
}

// formatRun writes one step: the command, its exit code, stdout lines after `1|`, stderr after
// `2|`.
// An explain's descriptions are reflowed (see reflow).
function formatRun(command: string, run: KubectlRun, step: Step): string {
  const explains = /^explain\b/.test(step.kubectl);
  const body = (prefix: string, text: string) =>
    normaliseOutput(explains ? reflow(text) : text, step.mask, step.drop)
      .replace(/\n$/, '')
      .split('\n')
      .filter((l, i, all) => !(all.length === 1 && l === ''))
      .map((l) => `${prefix}${l}`.trimEnd());
  return [`$ ${command}`, `exit ${run.code}`, ...body('1| ', run.stdout), ...body('2| ', run.stderr), ''].join('\n');
}

export function fixturePath(session: Session): string {
  return join(fixturesDir, `${session.name}.txt`);
}
