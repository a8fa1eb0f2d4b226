import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface RequiredBinary {
  binary: string;
  debianPackage: string;
}

export const etcdBinary: RequiredBinary = { binary: 'etcd', debianPackage: 'etcd-server' };
export const natsBinary: RequiredBinary = { binary: 'nats-server', debianPackage: 'nats-server' };
export const prometheusBinary: RequiredBinary = { binary: 'prometheus', debianPackage: 'prometheus' };

// findBinary looks a binary up on PATH (and the sbin folders Debian puts nats-server in) and
// throws a message saying how to install it when it is missing: tests fail, never skip.
export function findBinary(required: RequiredBinary): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, required.binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  throw new Error(
    `${required.binary} is not installed. Install it with: apt-get update && apt-get install -y ${required.debianPackage} ` +
      `(npm test does this by itself when run as root).`,
  );
}
