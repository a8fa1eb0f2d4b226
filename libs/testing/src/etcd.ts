import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { etcdBinary, findBinary } from './binaries';
import { freePort } from './ports';
import { startProcess, waitForPort } from './process';

export interface EtcdServer {
  readonly endpoint: string;
  // restart stops etcd, runs whileDown, and starts it again on the same ports and data.
  restart(whileDown: () => Promise<void>): Promise<void>;
  // signal sends the process a signal (SIGSTOP hangs it with its sockets open, SIGCONT resumes).
  signal(name: NodeJS.Signals): void;
  stop(): Promise<void>;
}

export interface EtcdOptions {
  // progressNotifyInterval is how often etcd sends watch progress notifications (etcd's flag
  // syntax, e.g. '1s').
  progressNotifyInterval?: string;
  // tls serves clients over TLS with this certificate and key, and requires a client
  // certificate signed by the CA (etcd's --client-cert-auth).
  tls?: { caFile: string; certFile: string; keyFile: string };
  // fsync makes etcd sync its write-ahead log on every write, as a production etcd (and the
  // oracle's) does. Off by default (--unsafe-no-fsync): a test needs no durability, and an
  // fsync costs a few hundred microseconds a write on this machine's disk.
  fsync?: boolean;
}

// startEtcd starts a real etcd on free loopback ports with a throw-away data directory; its
// endpoint is https:// when it serves TLS.
export async function startEtcd(options: EtcdOptions = {}): Promise<EtcdServer> {
  const binary = findBinary(etcdBinary);
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-etcd-'));
  const client = `${options.tls ? 'https' : 'http'}://127.0.0.1:${clientPort}`;
  const clientTls = options.tls
    ? ['--cert-file', options.tls.certFile, '--key-file', options.tls.keyFile, '--trusted-ca-file', options.tls.caFile, '--client-cert-auth']
    : [];
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    '--name', 'plinth-test',
    '--data-dir', dataDir,
    '--listen-client-urls', client,
    '--advertise-client-urls', client,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `plinth-test=${peer}`,
    ...(options.fsync ? [] : ['--unsafe-no-fsync']),
    '--experimental-watch-progress-notify-interval', options.progressNotifyInterval ?? '1s',
    '--log-level', 'error',
    ...clientTls,
  ];
  const run = async () => {
    const started = startProcess(binary, args);
    try {
      await waitForPort(started, clientPort, 'etcd');
    } catch (err) {
      await started.stop();
      rmSync(dataDir, { recursive: true, force: true });
      throw err;
    }
    return started;
  };
  let proc = await run();
  return {
    endpoint: client,
    async restart(whileDown) {
      await proc.stop();
      await whileDown();
      proc = await run();
    },
    signal(name) {
      proc.child.kill(name);
    },
    async stop() {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
