// The permissions nats-server gives the gateway's and the authz service's users, so that
// neither can play the other's part. natsPermissions is the one table of them: the test
// harness writes it into its nats-server configuration, and the chart's configuration is
// checked against it.
import { subjectsFor } from './protocol';

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
