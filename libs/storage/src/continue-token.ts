// A continue token resumes a paged list: base64url (no padding) of
// {"v":"meta.platform.io/v1","rv":<snapshot revision>,"start":"<next key, relative to the prefix>"},
// the form of k8s.io/apiserver/pkg/storage/continue.go with the platform.io group.
import { StorageError } from './errors';

export const continueTokenVersion = 'meta.platform.io/v1';

export interface ContinuePosition {
  // revision is the snapshot revision every page of the list reads at.
  revision: number;
  // startKey is the full key the next page starts at (inclusive).
  startKey: string;
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

export function encodeContinue(nextKey: string, prefix: string, revision: number): string {
  const token: ContinueToken = { v: continueTokenVersion, rv: revision, start: nextKey.slice(prefix.length) };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

// decodeContinue checks the token against the listed prefix and throws InvalidArgument with the
// reason when it is malformed.
export function decodeContinue(token: string, prefix: string): ContinuePosition {
  let parsed: Partial<ContinueToken>;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidToken('continue key is not valid: incorrect encoded start resourceVersion (version meta.platform.io/v1)');
  }
  if (parsed === null || typeof parsed !== 'object' || parsed.v !== continueTokenVersion) {
    const version = parsed !== null && typeof parsed === 'object' && typeof parsed.v === 'string' ? parsed.v : '';
    throw invalidToken(`continue key is not valid: server does not recognize this encoded version ${version}`);
  }
  if (typeof parsed.rv !== 'number' || !Number.isSafeInteger(parsed.rv) || parsed.rv < 1) {
    throw invalidToken('continue key is not valid: incorrect encoded start resourceVersion (version meta.platform.io/v1)');
  }
  if (typeof parsed.start !== 'string' || parsed.start.length === 0) {
    throw invalidToken('continue key is not valid: encoded start key empty (version meta.platform.io/v1)');
  }
  const start = parsed.start.replace(/^\/+/, '');
  if (start.split('/').includes('..')) {
    throw invalidToken(`continue key is not valid: ${parsed.start}`);
  }
  return { revision: parsed.rv, startKey: prefix + start };
}

// invalidToken is kube-apiserver's answer to a token DecodeContinue refuses.
function invalidToken(reason: string): StorageError {
  return StorageError.invalidArgument(`invalid continue token: ${reason}`);
}

// keyAfter is the smallest key greater than key: the start of the page after it.
export function keyAfter(key: string): string {
  return `${key}\x00`;
}

// prefixEnd is the smallest key greater than every key that starts with prefix.
export function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}
