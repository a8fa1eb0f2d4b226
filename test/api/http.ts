// A small HTTP client for API tests: JSON in, JSON (or text) out, headers kept.
import { connect as netConnect } from 'node:net';
import { eventually } from '@plinth/testing';
import { startTestApiServer, TestApiServer } from '@plinth/testing-server';

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

// adminToken is the test servers' administrator (see @plinth/testing-server testTokens).
export const adminToken = 'admin-token';

// client sends requests as the administrator unless another token (or none: null) is given.
export function client(base: string, token: string | null = adminToken) {
  return async function request(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; raw?: string } = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(options.headers ?? {}) };
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(base + path, { method, headers, body });
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

export type ApiRequest = ReturnType<typeof client>;

// suiteServer starts a test API server for the enclosing describe block (beforeAll) and stops it
// after its tests (afterAll). Its url and store, and request (the administrator's client), are
// there from the first test (or a later beforeAll) on.
export function suiteServer(...args: Parameters<typeof startTestApiServer>) {
  let started: TestApiServer | undefined;
  beforeAll(async () => {
    started = await startTestApiServer(...args);
  });
  afterAll(() => started?.stop());
  const running = (): TestApiServer => {
    if (!started) throw new Error('the suite server starts in beforeAll');
    return started;
  };
  const request: ApiRequest = (method, path, options) => client(running().url)(method, path, options);
  return {
    get url(): string {
      return running().url;
    },
    get store(): TestApiServer['store'] {
      return running().store;
    },
    // ca is the cluster CA of a server started with https (empty otherwise).
    get ca(): string {
      return running().ca;
    },
    request,
  };
}

// watchLines opens a watch and collects its newline-delimited events.
export async function openWatch(base: string, path: string, headers: Record<string, string> = { authorization: `Bearer ${adminToken}` }) {
  const controller = new AbortController();
  const res = await fetch(base + path, { headers, signal: controller.signal });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const events: any[] = [];
  let buffer = '';
  const reader = res.body?.getReader();
  const done = (async () => {
    if (!reader) return;
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim()) events.push(JSON.parse(line));
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    async waitFor(count: number, timeoutMs = 10000) {
      await eventually(() => events.length >= count, { what: () => `${count} watch events (got ${events.length}: ${JSON.stringify(events)})`, timeoutMs, intervalMs: 20 });
      return events;
    },
    ended: done,
    close() {
      controller.abort();
    },
  };
}

// podManifest is a one-container pod, with spec fields added or replaced.
export const podManifest = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

// namespacedCrd is a CustomResourceDefinition of one served and stored version, v1, in
// group example.com unless told, with the given OpenAPI schema.
export const namespacedCrd = (names: { plural: string; kind: string }, openAPIV3Schema: Record<string, unknown>, group = 'example.com') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${names.plural}.${group}` },
  spec: { group, scope: 'Namespaced', names, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }] },
});

export interface RawHttpAnswer {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
  // closed says the server ended the connection after the answer.
  closed: boolean;
}

// rawHttp writes bytes as they are on a new TCP connection (a client with broken framing) and
// reads the answer up to the end of the connection, or of the body its Content-Length gives
// when the server keeps the connection open.
export function rawHttp(base: string, request: string | Buffer): Promise<RawHttpAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: url.hostname, port: Number(url.port) }, () => socket.write(request));
    const chunks: Buffer[] = [];
    const parse = (closed: boolean): RawHttpAnswer | null => {
      const data = Buffer.concat(chunks);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine, ...lines] = data.subarray(0, end).toString('utf8').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = data.subarray(end + 4);
      if (!closed && (headers['content-length'] === undefined || body.length < Number(headers['content-length']))) return null;
      return { statusLine, headers, body: body.toString('utf8'), closed };
    };
    let settled = false;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = parse(false);
      // An answer that closes the connection is read to its end, to see the close.
      if (answer && answer.headers.connection !== 'close' && !settled) {
        settled = true;
        socket.destroy();
        resolve(answer);
      }
    });
    const finish = () => {
      if (settled) return;
      settled = true;
      const answer = parse(true);
      if (answer) resolve(answer);
      else reject(new Error(`the connection ended without an answer: ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`));
    };
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (err) => {
      if (chunks.length > 0) finish();
      else if (!settled) {
        settled = true;
        reject(err);
      }
    });
  });
}
