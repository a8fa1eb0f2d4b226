import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, natsBinary } from './binaries';
import { freePort } from './ports';
import { startProcess, waitForPort } from './process';

export interface NatsServer {
  readonly url: string;
  stop(): Promise<void>;
}

export interface NatsOptions {
  // tls makes the server speak TLS only, with this certificate and key.
  tls?: { certFile: string; keyFile: string };
  // authorization is a configuration block (from natsServerAuthorization of
  // @plinth/authz-nats): the users, their passwords and permissions. Without it anyone may
  // connect and do anything.
  authorization?: string;
}

// startNats starts a real nats-server on a free loopback port.
export async function startNats(options: NatsOptions = {}): Promise<NatsServer> {
  const binary = findBinary(natsBinary);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'plinth-nats-'));
  const config = [`listen: "127.0.0.1:${port}"`];
  if (options.tls) config.push(`tls: ${JSON.stringify({ cert_file: options.tls.certFile, key_file: options.tls.keyFile })}`);
  if (options.authorization) config.push(options.authorization);
  const configFile = join(dir, 'nats.conf');
  writeFileSync(configFile, `${config.join('\n')}\n`, { mode: 0o600 });
  const proc = startProcess(binary, ['-c', configFile]);
  const stop = async () => {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(proc, port, 'nats-server');
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `${options.tls ? 'tls' : 'nats'}://127.0.0.1:${port}`, stop };
}
