// runHostileCases sends every case to a target, one at a time, and collects what broke an
// invariant: a 5xx kube-apiserver would not give, an error that is not a Status with the HTTP
// status as its code, a status other than the expected refusal, no answer within the client's
// timeout, or a refused request that changed the objects it aimed at.
import { caseLabel, HostileCase } from './hostile-case';
import { ForgedCredential } from './hostile-case';
import { Forged } from './credentials';
import { fixtures, widget, widgetDefinition, widgetFixture, widgetsCollection } from './fixtures';
import { KUBERNETES_SERVER_ERRORS } from './generate';
import { pollutionKey } from './mutators';
import { ClientTimeout, H2Unsendable, KeepAliveClient, RawAnswer, requestBytes, sendH2, sendRaw } from './raw-client';
import { readStatus } from './status-body';

export interface HostileTarget {
  port: number;
  ca: string;
  adminToken: string;
  // unprivilegedToken is a user with no grants beyond the bootstrap policy's.
  unprivilegedToken: string;
  forge(forged: ForgedCredential): Forged;
}

// requestTimeoutMs bounds every answer: a hostile request that stalls the server fails the case.
export const requestTimeoutMs = 10_000;

// answerBoundMs is the bound of a case's answer: requestTimeoutMs, and 10 s more per MiB of the
// request, whose every byte the server reads, decodes, validates and writes (about 1 s of CPU
// for a 1.3 MB object of 100,000 labels, stretched several times on a busy machine).
export function answerBoundMs(requestBytes: number): number {
  return requestTimeoutMs + Math.ceil((10_000 * requestBytes) / (1 << 20));
}

const readOnly = new Set(['GET', 'HEAD', 'OPTIONS']);

// HostileTransport says which cases go over HTTP/2: every h2Every-th case (by id) that is not a
// framing case (those are HTTP/1.1 byte streams), on a session of its own; 0 sends none.
export interface HostileTransport {
  h2Every: number;
}

// hostileTransport is the suite's: every fifth case over HTTP/2, as client-go and kubectl speak
// to kube-apiserver, the rest over HTTP/1.1.
export const hostileTransport: HostileTransport = { h2Every: 5 };

export class HostileRunner {
  private readonly snapshots = new Map<string, string>();
  private readonly keptAlive: KeepAliveClient;
  // sentOverH2 counts the cases that went over HTTP/2.
  sentOverH2 = 0;

  constructor(
    private readonly target: HostileTarget,
    private readonly transport: HostileTransport = { h2Every: 0 },
  ) {
    this.keptAlive = new KeepAliveClient(target);
  }

  // admin sends an ordinary request as the administrator.
  async admin(method: string, path: string, body?: unknown): Promise<RawAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.target.adminToken}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.keptAlive.request(method, path, headers, body === undefined ? undefined : Buffer.from(JSON.stringify(body)), requestTimeoutMs);
  }

  close(): void {
    this.keptAlive.close();
  }

  // ensureFixtures creates the namespaces and fixtures that are missing, and answers the
  // namespaces it found being deleted (a request that should not have reached them did).
  async ensureFixtures(): Promise<string[]> {
    const deleting: string[] = [];
    for (const ns of new Set(fixtures.map((f) => f.collection.split('/namespaces/')[1].split('/')[0]))) {
      const made = await this.admin('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      if (made.status !== 201 && made.status !== 409) throw new Error(`namespace ${ns}: ${made.status} ${made.body}`);
      const namespace = await this.admin('GET', `/api/v1/namespaces/${ns}`);
      if (namespace.status !== 200 || JSON.parse(namespace.body.toString()).metadata.deletionTimestamp) {
        deleting.push(`the namespace ${ns} is being deleted`);
        continue;
      }
      // Pods need the namespace's default ServiceAccount, which no controller makes in the
      // distributed run.
      const account = await this.admin('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
      if (account.status !== 201 && account.status !== 409) throw new Error(`default ServiceAccount of ${ns}: ${account.status} ${account.body}`);
    }
    await this.ensureWidgets();
    for (const fixture of fixtures) {
      if (deleting.some((d) => d.includes(` ${fixture.collection.split('/namespaces/')[1].split('/')[0]} `))) continue;
      const made = await this.admin('POST', fixture.collection, fixture.manifest);
      if (made.status !== 201 && made.status !== 409) throw new Error(`fixture in ${fixture.collection}: ${made.status} ${made.body}`);
    }
    return deleting;
  }

  // ensureWidgets creates the widgets' definition and waits until its resources are served,
  // then the fixture widget.
  private async ensureWidgets(): Promise<void> {
    const made = await this.admin('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', widgetDefinition);
    if (made.status !== 201 && made.status !== 409) throw new Error(`the widgets' definition: ${made.status} ${made.body}`);
    for (let attempt = 0; (await this.admin('GET', widgetsCollection)).status !== 200; attempt++) {
      if (attempt > 300) throw new Error(`${widgetsCollection} never became served`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fixture = await this.admin('POST', widgetsCollection, widget(widgetFixture));
    if (fixture.status !== 201 && fixture.status !== 409) throw new Error(`the fixture widget: ${fixture.status} ${fixture.body}`);
  }

  // snapshot is the names and resourceVersions of a collection's objects.
  async snapshot(collection: string): Promise<string> {
    const list = await this.admin('GET', collection);
    if (list.status !== 200) return `${list.status}`;
    const items = (JSON.parse(list.body.toString()).items ?? []) as { metadata: { name: string; resourceVersion: string; deletionTimestamp?: string } }[];
    // The service-account controller (of the all-in-one) makes a namespace's "default" account
    // again whenever it is gone, on its own time: it is not what a request changed.
    const own = collection.endsWith('/serviceaccounts') ? items.filter((o) => o.metadata.name !== 'default') : items;
    return own.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}${o.metadata.deletionTimestamp ? '(deleting)' : ''}`).join(' ');
  }

  private credentialHeaders(c: HostileCase): { headers: [string, string][]; forged?: Forged } {
    switch (c.credential.kind) {
      case 'admin':
        return { headers: [['authorization', `Bearer ${this.target.adminToken}`]] };
      case 'unprivileged':
        return { headers: [['authorization', `Bearer ${this.target.unprivilegedToken}`]] };
      case 'none':
        return { headers: [] };
      case 'header':
        return { headers: [['authorization', c.credential.value]] };
      case 'forged': {
        const forged = this.target.forge(c.credential.forged);
        return { headers: forged.authorization ? [['authorization', forged.authorization]] : [], forged };
      }
    }
  }

  private bytesOf(c: HostileCase, headers: [string, string][]): Buffer {
    if (c.framing) {
      const auth = headers.map(([k, v]) => `${k}: ${v}\r\n`).join('');
      return Buffer.from((c.body ?? Buffer.alloc(0)).toString('utf8').replace('{auth}', auth), 'utf8');
    }
    return requestBytes(c.method, c.path, [...headers, ...c.headers], c.body);
  }

  // run sends one case and answers its status (0: none) and what it broke, if anything.
  async run(c: HostileCase): Promise<{ status: number; problems: string[] }> {
    const { headers, forged } = this.credentialHeaders(c);
    const mutating = c.framing || !readOnly.has(c.method);
    for (const collection of c.snapshots) if (mutating && !this.snapshots.has(collection)) this.snapshots.set(collection, await this.snapshot(collection));
    let answer: RawAnswer;
    try {
      answer = await this.send(c, headers, forged);
    } catch (err) {
      if (err instanceof ClientTimeout) return { status: 0, problems: [`no answer: ${err.message}`] };
      return { status: 0, problems: [`the connection failed before any answer: ${(err as Error).message}`] };
    }
    const problems = this.check(c, answer);
    if (mutating) {
      const refused = answer.status === 0 || answer.status >= 400;
      if (refused) {
        for (const collection of c.snapshots) {
          const before = this.snapshots.get(collection);
          const after = await this.snapshot(collection);
          if (after !== before) problems.push(`refused with ${answer.status} but ${collection} changed:\n  before: ${before}\n  after:  ${after}`);
          this.snapshots.set(collection, after);
        }
      } else {
        // What an accepted request changed may reach past its collections (a deletecollection
        // across namespaces, a fixture made again): every snapshot is taken afresh.
        if (c.method === 'DELETE' || c.framing) problems.push(...(await this.ensureFixtures()));
        this.snapshots.clear();
      }
    }
    return { status: answer.status, problems };
  }

  // send sends a case over HTTP/2 when the transport picks it and node:http2 can express it,
  // else as HTTP/1.1 bytes.
  private async send(c: HostileCase, headers: [string, string][], forged: Forged | undefined): Promise<RawAnswer> {
    if (this.transport.h2Every > 0 && !c.framing && c.id % this.transport.h2Every === 0) {
      try {
        const all = [...headers, ...c.headers];
        const answer = await sendH2(this.target, { method: c.method, path: c.path, headers: all, body: c.body }, { clientCert: forged?.clientCert, timeoutMs: answerBoundMs(c.body?.length ?? 0) });
        this.sentOverH2++;
        return answer;
      } catch (err) {
        if (!(err instanceof H2Unsendable)) throw err;
      }
    }
    const bytes = this.bytesOf(c, headers);
    return sendRaw(this.target, bytes, { clientCert: forged?.clientCert, timeoutMs: answerBoundMs(bytes.length), head: c.method === 'HEAD' });
  }

  private check(c: HostileCase, answer: RawAnswer): string[] {
    const problems: string[] = [];
    const text = () => answer.body.toString('utf8').slice(0, 300);
    if (answer.status === 0 && strangerCertificateSessionEnd(c, answer)) return [];
    if (answer.status === 0) return [`the connection closed without an answer${answer.body.length ? `: ${text()}` : ''}`];
    if (answer.status >= 500 && !KUBERNETES_SERVER_ERRORS.some((e) => e.status === answer.status && e.matches(c, answer.body.toString('utf8')))) problems.push(`answered ${answer.status}: ${text()}`);
    if (c.expect === 'unauthorized' && answer.status !== 401) problems.push(`expected 401, got ${answer.status}: ${text()}`);
    if (c.expect === 'forbidden' && answer.status !== 403) problems.push(`expected 403, got ${answer.status}: ${text()}`);
    if (c.expect === 'refused' && !(answer.status >= 400 && answer.status < 500)) problems.push(`expected a 4xx refusal, got ${answer.status}: ${text()}`);
    // An accepted body with prototype keys must not come back with what they carried: Kubernetes
    // drops unknown fields, and a map of strings cannot hold an object.
    if (answer.status < 300 && c.body?.includes(pollutionKey) && answer.body.includes(pollutionKey)) problems.push(`accepted, and the answer carries ${pollutionKey}: ${text()}`);
    const contentType = answer.headers['content-type'] ?? '';
    // Go's server answers framing errors itself, in text; a Status is required of the rest.
    const statusRequired = answer.status >= 400 && c.method !== 'HEAD' && (!c.framing || contentType !== '' && !contentType.startsWith('text/plain'));
    if (statusRequired && !kubernetesTextAnswer(answer) && !openApiV3Miss(c.path, answer)) {
      const status = readStatus(contentType, answer.body);
      if (typeof status === 'string') problems.push(`the ${answer.status} answer is ${status}`);
      else if (status.kind !== 'Status' || status.apiVersion !== 'v1' || status.code !== answer.status) problems.push(`the ${answer.status} answer is not a Status of code ${answer.status}: ${JSON.stringify(status)}`);
    }
    return problems;
  }
}

// strangerCertificateSessionEnd is node:http2's end of a session whose client certificate is
// signed in the name of the cluster CA by a key of another type: OpenSSL's failure to check that
// signature (which it tries during the handshake although the server does not require a valid
// certificate) stays on its error queue and surfaces later as an error of the TLS socket
// (ERR_SSL_EVP_LIB), on which node:http2 ends the session with GOAWAY INTERNAL_ERROR, sometimes
// before the 401 is written. Over HTTP/1.1 the same request is answered 401. The session is the
// client's alone; the refusal leaves everything as it was (checked as for any refusal).
function strangerCertificateSessionEnd(c: HostileCase, answer: RawAnswer): boolean {
  return answer.h2 === true && c.credential.kind === 'forged' && c.credential.forged === 'stranger-client-cert' && /^RST_STREAM 2 after GOAWAY 2$/.test(answer.body.toString());
}

// kubernetesTextAnswer is kube-apiserver's answer in plain text, not a Status: the Go mux's 404
// for a path no API group serves, Go's server's 400 for a request-target it cannot parse (a
// path with a malformed percent-escape, before any handler runs), and a filter's
// responsewriters.InternalError (impersonating groups without a user).
function kubernetesTextAnswer(answer: RawAnswer): boolean {
  if (!(answer.headers['content-type'] ?? '').startsWith('text/plain')) return false;
  const body = answer.body.toString();
  return (
    (answer.status === 404 && body === '404 page not found\n') ||
    (answer.status === 400 && body === '400 Bad Request') ||
    (answer.status === 500 && body.startsWith('Internal Server Error: '))
  );
}

// openApiV3Miss is kube-openapi handler3's answer to a group version it does not publish: a 404
// without a body or a Content-Type (recorded in the differential suite's openapi area).
function openApiV3Miss(path: string, answer: RawAnswer): boolean {
  return path.startsWith('/openapi/v3/') && answer.status === 404 && answer.body.length === 0 && answer.headers['content-type'] === undefined;
}

export interface HostileReport {
  failures: string[];
  statuses: Map<number, number>;
  // sentOverH2 is how many cases went over HTTP/2.
  sentOverH2: number;
}

// runHostileCases runs every case in order and reports each failure under the case's label.
export async function runHostileCases(target: HostileTarget, cases: HostileCase[], transport?: HostileTransport): Promise<HostileReport> {
  const runner = new HostileRunner(target, transport);
  try {
    const deleting = await runner.ensureFixtures();
    if (deleting.length) throw new Error(`the run cannot start: ${deleting.join(', ')}`);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const c of cases) {
      const { status, problems } = await runner.run(c);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      for (const problem of problems) failures.push(`${caseLabel(c)}\n    ${problem}`);
    }
    return { failures, statuses, sentOverH2: runner.sentOverH2 };
  } finally {
    runner.close();
  }
}
