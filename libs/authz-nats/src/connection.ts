// The NATS link of the gateway and the authz service: TLS to nats-server, each process under
// its own user, and the permissions nats-server gives each user so that neither can play the
// other's part. natsPermissions is the one table of those permissions: the test harness writes
// it into its nats-server configuration, and the chart's configuration is checked against it.
import { readFileSync } from 'node:fs';
import { ConnectionOptions } from 'nats';
import { subjectsFor } from './protocol';

// NatsLinkSettings are a process's flags for NATS.
export interface NatsLinkSettings {
  // url is one or more server URLs, comma-separated.
  url: string;
  // caFile, when set, requires TLS and trusts the CA of nats-server's certificate.
  caFile: string;
  // user and passwordFile are the process's NATS credentials (none when user is empty).
  user: string;
  passwordFile: string;
}

export class NatsLinkError extends Error {}

// natsConnectionOptions are the nats.js options for the settings; the connection retries for
// ever once made (a NATS restart must not end the process).
export function natsConnectionOptions(link: NatsLinkSettings, name: string): ConnectionOptions {
  if (link.user && !link.passwordFile) throw new NatsLinkError('--nats-user needs --nats-password-file');
  if (!link.user && link.passwordFile) throw new NatsLinkError('--nats-password-file needs --nats-user');
  const options: ConnectionOptions = { servers: link.url.split(','), name, maxReconnectAttempts: -1 };
  if (link.caFile) options.tls = { ca: readFileSync(link.caFile, 'utf8') };
  if (link.user) {
    options.user = link.user;
    options.pass = readFileSync(link.passwordFile, 'utf8').trim();
  }
  return options;
}

// NatsPermissions are a nats-server user's permissions (its configuration's publish and
// subscribe allow lists).
export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
  // allowResponses lets the user reply to the requests it received (nats-server's
  // allow_responses), without a publish permission on the requesters' inboxes.
  allowResponses: boolean;
}

// natsPermissions: only authz subscribes to the authorization subjects and publishes policy
// changes; only the gateway publishes authorization requests, and it hears the answers on its
// inbox and the policy changes.
export function natsPermissions(subjectPrefix?: string): { authz: NatsPermissions; gateway: NatsPermissions } {
  const subjects = subjectsFor(subjectPrefix);
  const questions = [subjects.authorize, subjects.rules, subjects.rbacWrite];
  return {
    authz: { publish: [subjects.policyChanged], subscribe: questions, allowResponses: true },
    gateway: { publish: questions, subscribe: ['_INBOX.>', subjects.policyChanged], allowResponses: false },
  };
}

export interface NatsUser {
  user: string;
  password: string;
  permissions: NatsPermissions;
}

// natsServerAuthorization is the authorization block of a nats-server configuration file for
// the users (nats-server's configuration accepts JSON syntax).
export function natsServerAuthorization(users: NatsUser[]): string {
  const entry = (u: NatsUser) => ({
    user: u.user,
    password: u.password,
    permissions: {
      publish: { allow: u.permissions.publish },
      subscribe: { allow: u.permissions.subscribe },
      ...(u.permissions.allowResponses ? { allow_responses: true } : {}),
    },
  });
  return `authorization: ${JSON.stringify({ users: users.map(entry) }, null, 2)}\n`;
}
