// ApiClient talks to the Plinth API over HTTPS (or plain HTTP for an http:// server, as test
// servers are), as client-go's REST client does for controllers and kubelets: JSON requests
// with a client certificate or a bearer token, Status errors back as StatusError, and watch
// streams of newline-delimited events.
import * as https from 'node:https';
import * as http from 'node:http';
import { IncomingMessage, RequestOptions } from 'node:http';
import { KubeList, KubeObject } from '@plinth/api';
import { internalError, Status, StatusError } from '@plinth/machinery';

export interface ClientCredentials {
  server: string;
  caPem: string;
  certPem?: string;
  keyPem?: string;
  // token is a bearer token, or a function giving the current one for tokens that are
  // refreshed (a service account's, from the TokenRequest API).
  token?: string | (() => string);
  userAgent?: string;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObject & Partial<Status>;
}

export interface WatchStream {
  // done resolves when the stream ends (server timeout, close, or a broken connection).
  done: Promise<void>;
  close(): void;
}

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

const patchContentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

// RequestInstrumentation wraps each API call (watches excepted): a tracer runs send in a client
// span and passes the headers that carry its context. The process sets it once, as
// setWorkQueueMetricsProvider does for the work queues.
export type RequestInstrumentation = <T>(method: string, path: string, send: (headers: Record<string, string>) => Promise<T>) => Promise<T>;

let instrumentation: RequestInstrumentation | null = null;

export function setRequestInstrumentation(value: RequestInstrumentation | null): void {
  instrumentation = value;
}

export class ApiClient {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private readonly request: typeof http.request;

  constructor(private readonly credentials: ClientCredentials) {
    this.url = new URL(credentials.server);
    // No socket limit: every watch holds a connection for its whole life.
    const secure = this.url.protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true, ca: credentials.caPem, cert: credentials.certPem, key: credentials.keyPem }) : new http.Agent({ keepAlive: true });
    this.request = secure ? https.request : http.request;
  }

  get<T = KubeObject>(path: string, query: Record<string, string> = {}): Promise<T> {
    return this.call<T>('GET', path, query);
  }

  list<T = KubeObject>(path: string, query: Record<string, string> = {}): Promise<KubeList<T>> {
    return this.call<KubeList<T>>('GET', path, query);
  }

  create<T = KubeObject>(path: string, body: unknown, query: Record<string, string> = {}): Promise<T> {
    return this.call<T>('POST', path, query, body);
  }

  update<T = KubeObject>(path: string, body: unknown, query: Record<string, string> = {}): Promise<T> {
    return this.call<T>('PUT', path, query, body);
  }

  patch<T = KubeObject>(path: string, type: PatchType, body: unknown, query: Record<string, string> = {}): Promise<T> {
    return this.call<T>('PATCH', path, query, body, patchContentTypes[type]);
  }

  delete<T = KubeObject>(path: string, options: Record<string, unknown> = {}, query: Record<string, string> = {}): Promise<T> {
    return this.call<T>('DELETE', path, query, { kind: 'DeleteOptions', apiVersion: 'v1', ...options });
  }

  // watch streams events of a collection from resourceVersion; onEvent runs for each line.
  watch(path: string, query: Record<string, string>, onEvent: (event: WatchEvent) => void): WatchStream {
    let req: http.ClientRequest | null = null;
    const done = new Promise<void>((resolve, reject) => {
      req = this.request(this.options('GET', path, { ...query, watch: '1' }), (res) => {
        if ((res.statusCode ?? 500) >= 300) {
          readAll(res).then((text) => reject(statusErrorOf(res.statusCode ?? 500, text)), reject);
          return;
        }
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (line.trim()) onEvent(JSON.parse(line) as WatchEvent);
          }
        });
        res.on('end', () => resolve());
        res.on('error', () => resolve());
        res.on('close', () => resolve());
      });
      req.on('error', (err) => reject(err));
      req.end();
    });
    return { done, close: () => req?.destroy() };
  }

  close(): void {
    this.agent.destroy();
  }

  private options(method: string, path: string, query: Record<string, string>, contentType?: string, contentLength?: number): RequestOptions {
    const search = new URLSearchParams(query).toString();
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.credentials.userAgent ?? 'plinth-client' };
    const token = typeof this.credentials.token === 'function' ? this.credentials.token() : this.credentials.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (contentType) headers['content-type'] = contentType;
    if (contentLength !== undefined) headers['content-length'] = String(contentLength);
    return {
      host: this.url.hostname,
      port: this.url.port || (this.url.protocol === 'https:' ? 443 : 80),
      method,
      path: search ? `${path}?${search}` : path,
      agent: this.agent,
      headers,
    };
  }

  private call<T>(method: string, path: string, query: Record<string, string>, body?: unknown, contentType = 'application/json'): Promise<T> {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const send = (headers: Record<string, string>) => this.send<T>(method, path, query, data, contentType, headers);
    return instrumentation ? instrumentation(method, path, send) : send({});
  }

  private send<T>(method: string, path: string, query: Record<string, string>, data: string | undefined, contentType: string, headers: Record<string, string>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const options = this.options(method, path, query, data ? contentType : undefined, data ? Buffer.byteLength(data) : undefined);
      Object.assign(options.headers as Record<string, string>, headers);
      const req = this.request(options, (res) => {
        readAll(res).then((text) => {
          const code = res.statusCode ?? 500;
          if (code >= 300) reject(statusErrorOf(code, text));
          else resolve(JSON.parse(text) as T);
        }, reject);
      });
      req.on('error', reject);
      req.end(data);
    });
  }
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

// statusErrorOf turns an error response into the StatusError it carries.
function statusErrorOf(code: number, text: string): StatusError {
  try {
    const status = JSON.parse(text) as Status;
    if (status.kind === 'Status') return new StatusError(status);
  } catch {
    // not a Status body
  }
  const err = internalError(`unexpected response ${code}: ${text.slice(0, 200)}`);
  err.errStatus.code = code;
  return err;
}

// resourcePath builds /api/v1/... or /apis/<group>/<version>/... paths.
export function resourcePath(p: { group: string; version: string; resource: string; namespace?: string; name?: string; subresource?: string }): string {
  const base = p.group === '' ? `/api/${p.version}` : `/apis/${p.group}/${p.version}`;
  const ns = p.namespace ? `/namespaces/${p.namespace}` : '';
  const name = p.name ? `/${p.name}` : '';
  const sub = p.name && p.subresource ? `/${p.subresource}` : '';
  return `${base}${ns}/${p.resource}${name}${sub}`;
}
