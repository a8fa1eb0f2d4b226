// TLS helpers for the security tests: certificates made with @plinth/pki (signed by the cluster
// CA that plinth generated, or by CAs the tests make up) and HTTPS requests over real TLS
// connections that trust the server's CA and present whatever credentials the test gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { join } from 'node:path';
import { issueCertificate, KeyPairPem, newCertificateAuthority as newCa } from '@plinth/pki';

export interface KeyPair {
  certPem: string;
  keyPem: string;
}

// CertificateAuthority can sign client certificates.
export type CertificateAuthority = KeyPair;

function keyPair(pair: KeyPairPem): KeyPair {
  return { certPem: pair.cert, keyPem: pair.key };
}

// newCertificateAuthority makes a self-signed CA that plinth knows nothing about (until a flag
// names its file).
export function newCertificateAuthority(cn: string): CertificateAuthority {
  return keyPair(newCa(cn));
}

// clusterCertificateAuthority loads the CA plinth generated under <dataDir>/pki.
export function clusterCertificateAuthority(dataDir: string): CertificateAuthority {
  return { certPem: readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8'), keyPem: readFileSync(join(dataDir, 'pki', 'ca.key'), 'utf8') };
}

// issueClientCertificate signs a client certificate: CN is the user, each O a group.
export function issueClientCertificate(issuer: CertificateAuthority, cn: string, orgs: string[] = []): KeyPair {
  return keyPair(issueCertificate({ cert: issuer.certPem, key: issuer.keyPem }, { commonName: cn, organizations: orgs, usage: 'client' }));
}

export function writePem(path: string, pem: string): string {
  writeFileSync(path, pem);
  return path;
}

export interface TlsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface TlsRequestOptions {
  // ca is the server's CA, which the client verifies the serving certificate against.
  ca: string;
  // clientCert is presented in the TLS handshake.
  clientCert?: KeyPair;
  token?: string;
  headers?: Record<string, string | string[]>;
  body?: unknown;
}

// tlsRequest makes one request on its own TLS connection (no agent, so no session reuse between
// identities).
export function tlsRequest(base: string, method: string, path: string, options: TlsRequestOptions): Promise<TlsResponse> {
  const url = new URL(path, base);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string | string[]> = {
    accept: 'application/json',
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
    ...(options.headers ?? {}),
  };
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers,
        agent: false,
        ca: options.ca,
        ...(options.clientCert ? { cert: options.clientCert.certPem, key: options.clientCert.keyPem } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface RawResponse {
  statusLine: string;
  // headers keeps each header line's value as the bytes sent, read as UTF-8 (Go writes UTF-8).
  headers: [name: string, value: string][];
  body: string;
  // closed says the server closed the connection after answering.
  closed: boolean;
}

// rawTlsRequest writes the bytes given on a new TLS connection, as a client with broken
// framing would, and reads the answer up to the connection's end (or, for an answer that leaves
// the connection open, up to its Content-Length).
export function rawTlsRequest(port: number, ca: string, request: string | Buffer, clientCert?: KeyPair): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...(clientCert ? { cert: clientCert.certPem, key: clientCert.keyPem } : {}) }, () => {
      socket.write(request);
    });
    const chunks: Buffer[] = [];
    const parse = (closed: boolean): RawResponse | null => {
      const data = Buffer.concat(chunks);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine, ...lines] = data.subarray(0, end).toString('utf8').split('\r\n');
      const headers = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]);
      const body = data.subarray(end + 4);
      const length = headers.find(([name]) => name === 'content-length');
      if (!closed && (!length || body.length < Number(length[1]))) return null;
      return { statusLine, headers, body: body.toString('utf8'), closed };
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = parse(false);
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('end', () => {
      const answer = parse(true);
      if (answer) resolve(answer);
      else reject(new Error(`the connection ended without an answer: ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`));
    });
    socket.on('error', reject);
  });
}
