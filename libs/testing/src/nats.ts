import { findBinary, natsBinary } from './binaries';
import { freePort } from './ports';
import { startProcess, waitForPort } from './process';

export interface NatsServer {
  readonly url: string;
  stop(): Promise<void>;
}

// startNats starts a real nats-server on a free loopback port.
export async function startNats(): Promise<NatsServer> {
  const binary = findBinary(natsBinary);
  const port = await freePort();
  const proc = startProcess(binary, ['-a', '127.0.0.1', '-p', String(port)]);
  try {
    await waitForPort(proc, port, 'nats-server');
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { url: `nats://127.0.0.1:${port}`, stop: () => proc.stop() };
}
