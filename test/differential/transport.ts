// transport.ts sends one request as written (node's http/https, no client-side rewriting) to
// Plinth or to a real kube-apiserver, and reads its answer, or a watch's stream within bounds.
import { IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RawAnswer } from './normalise';
import { WatchRead } from './scenario';

// Target is a server and the administrator's credentials there (a bearer token, or a client
// certificate as the real server's admin kubeconfig holds).
export interface Target {
  base: string;
  token?: string;
  ca?: string;
  cert?: string;
  key?: string;
}

export interface OutgoingRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

const answerTimeoutMs = 60_000;

function headersOf(res: IncomingMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < res.rawHeaders.length; i += 2) (out[res.rawHeaders[i].toLowerCase()] ??= []).push(res.rawHeaders[i + 1]);
  return out;
}

export function send(target: Target, req: OutgoingRequest, watch?: WatchRead): Promise<RawAnswer> {
  const url = new URL(target.base + req.path);
  const headers: Record<string, string | string[]> = { ...req.headers };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  if (req.body) headers['content-length'] = String(req.body.length);
  const options = { method: req.method, headers, ca: target.ca, cert: target.cert, key: target.key };
  const requester = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<RawAnswer>((resolve, reject) => {
    const outgoing = requester(url, options, (res) => {
      const chunks: Buffer[] = [];
      const streaming = watch && res.statusCode === 200;
      const events: unknown[] = [];
      let pending = '';
      let settled = false;
      const finish = (ended: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const body = Buffer.concat(chunks);
        resolve(streaming ? { status: res.statusCode ?? 0, headers: headersOf(res), body, events, ended } : { status: res.statusCode ?? 0, headers: headersOf(res), body });
        res.destroy();
      };
      const timer = setTimeout(() => finish(false), streaming ? (watch.seconds ?? 3) * 1000 : answerTimeoutMs);
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (!streaming) return;
        pending += chunk.toString('utf8');
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl).trim();
          pending = pending.slice(nl + 1);
          if (!line) continue;
          try {
            events.push(JSON.parse(line));
          } catch {
            events.push({ unparsed: line });
          }
          if (watch.events !== undefined && events.length >= watch.events) return finish(false);
        }
      });
      res.on('end', () => finish(true));
      res.on('error', () => finish(false));
    });
    outgoing.on('error', reject);
    if (req.body) outgoing.write(req.body);
    outgoing.end();
  });
}
