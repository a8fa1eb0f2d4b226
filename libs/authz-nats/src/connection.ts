// connectNats opens the connection an app keeps for its life: it waits for a NATS server that
// is not up yet (the apps start in any order), reconnects for ever after, and reports to the
// process's `nats` link when it is lost and back. Over TLS and under the app's own user when
// its NatsLinkSettings say so.
import { readFileSync } from 'node:fs';
import { connect, ConnectionOptions, NatsConnection } from 'nats';
import { LinkState } from '@plinth/machinery';

// NatsLinkSettings are a process's flags for NATS.
export interface NatsLinkSettings {
  // url is one or more server URLs, comma-separated.
  url: string;
  // caFile, when set, requires TLS and trusts the CA of nats-server's certificate.
  caFile: string;
  // user and passwordFile are the process's NATS credentials (none when user is empty).
  user: string;
  passwordFile: string;
  // insecure allows a plaintext connection (no caFile), for local development only.
  insecure: boolean;
}

export class NatsLinkError extends Error {}

// checkNatsLink refuses settings that are incomplete, or plaintext without --nats-insecure.
export function checkNatsLink(link: NatsLinkSettings): void {
  if (link.user && !link.passwordFile) throw new NatsLinkError('--nats-user needs --nats-password-file');
  if (!link.user && link.passwordFile) throw new NatsLinkError('--nats-password-file needs --nats-user');
  if (!link.caFile && !link.insecure) {
    throw new NatsLinkError('NATS is reached over TLS only: set --nats-ca-file (with --nats-user and --nats-password-file), or --nats-insecure for local development only');
  }
}

// natsSecurityOptions are the nats.js TLS and credential options of the settings.
export function natsSecurityOptions(link: NatsLinkSettings): Pick<ConnectionOptions, 'tls' | 'user' | 'pass'> {
  checkNatsLink(link);
  const options: Pick<ConnectionOptions, 'tls' | 'user' | 'pass'> = {};
  if (link.caFile) options.tls = { ca: readFileSync(link.caFile, 'utf8') };
  if (link.user) {
    options.user = link.user;
    options.pass = readFileSync(link.passwordFile, 'utf8').trim();
  }
  return options;
}

export interface NatsConnectOptions {
  // settings are the URLs (comma-separated), TLS and credentials.
  settings: NatsLinkSettings;
  // name is how the server lists the connection.
  name: string;
  link: LinkState;
  // reconnectTimeWaitMs is the wait between two attempts on one server (500 when absent).
  reconnectTimeWaitMs?: number;
}

export async function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  options.link.waiting();
  const nc = await connect({
    ...natsSecurityOptions(options.settings),
    servers: options.settings.url.split(','),
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
