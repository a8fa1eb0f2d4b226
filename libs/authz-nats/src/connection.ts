// connectNats opens the connection an app keeps for its life: it waits for a NATS server that
// is not up yet (the apps start in any order), reconnects for ever after, and reports to the
// process's `nats` link when it is lost and back.
import { connect, NatsConnection } from 'nats';
import { LinkState } from '@plinth/machinery';

export interface NatsConnectOptions {
  // servers is the comma-separated list of NATS URLs.
  servers: string;
  // name is how the server lists the connection.
  name: string;
  link: LinkState;
  // reconnectTimeWaitMs is the wait between two attempts on one server (500 when absent).
  reconnectTimeWaitMs?: number;
}

export async function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  options.link.waiting();
  const nc = await connect({
    servers: options.servers.split(','),
    name: options.name,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: options.reconnectTimeWaitMs ?? 500,
    reconnectJitter: 200,
  });
  void followLink(nc, options.link);
  return nc;
}

async function followLink(nc: NatsConnection, link: LinkState): Promise<void> {
  link.ok();
  for await (const status of nc.status()) {
    if (status.type === 'disconnect') link.failed(new Error(`disconnected from ${String(status.data)}`));
    else if (status.type === 'reconnect') link.ok();
  }
}
