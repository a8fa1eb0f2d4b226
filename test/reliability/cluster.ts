// startCluster runs the distributed Plinth on loopback as a cluster runs it (etcd, nats-server,
// the storage service, authz and gateways, each its own process) with every member restartable
// on its own port and data: a fault test kills one (SIGKILL or SIGTERM) and starts it again.
// The gateways read a static token file: admin-token in system:masters, alice-token a plain
// user.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GrpcObjectStore, GrpcObjectStoreOptions, storageClientCredentials } from '@plinth/storage-grpc';
import { etcdBinary, findBinary, freePort, makeLinkPki, natsBinary, RunningProcess, startProcess, storageClientFlags, storageServingFlags, waitForPort, eventually, GiveUp } from '@plinth/testing';

const root = join(__dirname, '../..');

export type MemberName = 'etcd' | 'nats' | 'storage' | 'authz' | `gateway-${number}` | 'controllers';

export interface Member {
  readonly name: MemberName;
  process: RunningProcess;
  // start starts the member (again) on its port and data; it resolves once it serves.
  start(): Promise<void>;
  // launch starts the process without waiting for it to serve; ready waits.
  launch(): void;
  ready(): Promise<void>;
  // log is everything the current process printed (its first 4 MB).
  log(): string;
  // kill sends the signal and resolves with the exit code once the process is gone.
  kill(signal: NodeJS.Signals): Promise<number | null>;
  // signal sends a signal that need not end the process (SIGSTOP, SIGCONT).
  signal(signal: NodeJS.Signals): void;
}

export interface ClusterOptions {
  gateways?: number;
  // gatewayArgs are added to the command line of the gateway of that index.
  gatewayArgs?: (index: number) => string[];
  // started false leaves every member to the test to start.
  started?: boolean;
  // controllers adds the controller manager (with one simulated node) through gateway 0.
  controllers?: boolean;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Cluster {
  readonly dir: string;
  readonly members: Map<MemberName, Member>;
  // storageClient opens a client of the storage service, with the gateway's certificate.
  storageClient(options?: Partial<GrpcObjectStoreOptions>): GrpcObjectStore;
  gatewayPort(index: number): number;
  readonly ca: string;
  // request sends one HTTPS request to a gateway; agent keeps connections alive when given.
  request(gateway: number, method: string, path: string, token: string, body?: unknown, agent?: Agent): Promise<Answer>;
  // openStream sends a GET and resolves with the status once the answer's headers arrived; the
  // body is left to the caller's close.
  openStream(gateway: number, path: string, token: string): Promise<{ status: number; close(): void }>;
  stop(): Promise<void>;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-reliability-'));
  // The storage link is mutual TLS, as in a cluster; NATS is plaintext (--nats-insecure).
  const pki = makeLinkPki();
  writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,admin-uid,"system:masters"\nalice-token,alice,alice-uid,"developers"\n');
  const [etcdPort, etcdPeerPort, natsPort, storagePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const gatewayPorts: number[] = [];
  for (let i = 0; i < (options.gateways ?? 1); i++) gatewayPorts.push(await freePort());
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const storageAddress = `127.0.0.1:${storagePort}`;
  const members = new Map<MemberName, Member>();
  const node = (main: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
    startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, main), ...args], { ...process.env, NO_COLOR: '1', ...env });

  const member = (name: MemberName, launch: () => RunningProcess, ready: (m: Member) => Promise<unknown>): Member => {
    let log = '';
    const m: Member = {
      name,
      process: null as unknown as RunningProcess,
      log: () => log,
      async start() {
        m.launch();
        await m.ready();
      },
      launch() {
        m.process = launch();
        log = '';
        const keep = (chunk: Buffer) => {
          if (log.length < 4 * 1024 * 1024) log += chunk.toString();
        };
        m.process.child.stdout?.on('data', keep);
        m.process.child.stderr?.on('data', keep);
      },
      async ready() {
        await ready(m);
      },
      kill(signal) {
        const child = m.process.child;
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        child.kill(signal);
        return exited;
      },
      signal(signal) {
        m.process.child.kill(signal);
      },
    };
    members.set(name, m);
    return m;
  };

  const etcdData = join(dir, 'etcd');
  member(
    'etcd',
    () =>
      startProcess(findBinary(etcdBinary), [
        '--name', 'plinth-test', '--data-dir', etcdData,
        '--listen-client-urls', etcdUrl, '--advertise-client-urls', etcdUrl,
        '--listen-peer-urls', `http://127.0.0.1:${etcdPeerPort}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeerPort}`,
        '--initial-cluster', `plinth-test=http://127.0.0.1:${etcdPeerPort}`,
        '--unsafe-no-fsync', '--experimental-watch-progress-notify-interval', '1s', '--log-level', 'error',
      ]),
    (m) => waitForPort(m.process, etcdPort, 'etcd'),
  );
  member('nats', () => startProcess(findBinary(natsBinary), ['-a', '127.0.0.1', '-p', String(natsPort)]), (m) => waitForPort(m.process, natsPort, 'nats-server'));
  member(
    'storage',
    () => node('apps/storage/src/main.ts', storageServingFlags(pki), { PLINTH_ETCD_ENDPOINTS: etcdUrl, PLINTH_STORAGE_ADDRESS: storageAddress }),
    (m) => waitForLine(m, 'the storage service', /storage service listening on (\S+:\d+)/),
  );
  member(
    'authz',
    () => node('apps/authz/src/main.ts', ['--storage-address', storageAddress, ...storageClientFlags(pki.authzClient), `--nats-url=${natsUrl}`, '--nats-insecure']),
    (m) => waitForLine(m, 'the authz service', /authz serving on (\S+)/),
  );
  gatewayPorts.forEach((port, index) => {
    const dataDir = join(dir, `gateway-${index}`);
    member(
      `gateway-${index}`,
      () => {
        // Every replica serves with the same PKI, as the chart's Secret gives them.
        if (index > 0) copyPki(join(dir, 'gateway-0'), dataDir);
        return node('apps/gateway/src/main.ts', [
          '--storage-address', storageAddress, ...storageClientFlags(pki.gatewayClient), '--nats-url', natsUrl, '--nats-insecure', '--port', String(port),
          '--data-dir', dataDir, '--token-auth-file', join(dir, 'tokens.csv'), ...(options.gatewayArgs?.(index) ?? []),
        ]);
      },
      (m) => waitForLine(m, `gateway ${index}`, /serving on https:\/\/[^\s]*:(\d+)/),
    );
  });

  if (options.controllers) {
    member(
      'controllers',
      () => node('apps/controllers/src/main.ts', ['--kubeconfig', join(dir, 'gateway-0', 'controller-manager.kubeconfig'), '--simulated-nodes', '1', '--leader-elect=false']),
      (m) => waitForLine(m, 'the controller manager', /node simulator running/),
    );
  }
  const stop = async () => {
    for (const m of [...members.values()].reverse()) {
      if (m.process) await m.process.stop();
    }
    rmSync(dir, { recursive: true, force: true });
    pki.remove();
  };
  try {
    if (options.started !== false) for (const m of members.values()) await m.start();
  } catch (err) {
    await stop();
    throw err;
  }
  let caText = '';
  const caOf = () => (caText ||= readFileSync(join(dir, 'gateway-0', 'pki', 'ca.crt'), 'utf8'));
  return {
    dir,
    members,
    storageClient: (options) => new GrpcObjectStore({ ...options, address: storageAddress, credentials: storageClientCredentials(pki.gatewayClient) }),
    get ca() {
      return caOf();
    },
    gatewayPort: (index) => gatewayPorts[index],
    request: (gateway, method, path, token, body, agent) => send(gatewayPorts[gateway], caOf(), method, path, token, body, agent),
    openStream: (gateway, path, token) =>
      new Promise((resolve, reject) => {
        const req = httpsRequest({ host: '127.0.0.1', port: gatewayPorts[gateway], path, ca: caOf(), agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.resume();
          res.on('error', () => undefined);
          resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
        });
        req.on('error', reject);
        req.end();
      }),
    stop,
  };
}

function copyPki(from: string, to: string): void {
  mkdirSync(join(to, 'pki'), { recursive: true });
  for (const file of ['ca.crt', 'ca.key', 'server.crt', 'server.key', 'sa.key', 'sa.pub']) {
    try {
      writeFileSync(join(to, 'pki', file), readFileSync(join(from, 'pki', file)));
    } catch {
      // A file the PKI does not have is generated by the gateway.
    }
  }
}

function send(port: number, ca: string, method: string, path: string, token: string, body?: unknown, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, method, path, ca, agent: agent ?? false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => undefined);
        res.on('close', () => {
          if (!res.complete) reject(new ResponseCutError(`the response to ${method} ${path} was cut after status ${res.statusCode}`));
          else resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

// ResponseCutError is a response that began and did not end: the one failure a client must
// never see from a server stopping gracefully.
export class ResponseCutError extends Error {
  override name = 'ResponseCutError';
}

// refusedBeforeRead says whether a request failed without any byte of an answer: the
// connection was refused, or reset before the server read the request.
export function refusedBeforeRead(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return !(err instanceof ResponseCutError) && (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE');
}

// waitForLine waits until the member's process has printed a line matching pattern, failing
// if it exits first.
async function waitForLine(member: Member, name: string, pattern: RegExp, timeoutMs = 90_000): Promise<void> {
  const { child } = member.process;
  await eventually(() => {
    if (child.exitCode !== null || child.signalCode !== null) throw new GiveUp(`${name} exited (${child.exitCode ?? child.signalCode}):\n${member.process.output()}`);
    return pattern.test(member.log());
  }, { timeoutMs });
}

