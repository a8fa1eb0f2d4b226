// HostileCase is one generated request and what the suite expects of its answer beyond the
// invariants every answer keeps (no 5xx, errors as Status, no hang, nothing changed when
// refused).
import { Buffer } from 'node:buffer';

// ForgedCredential names a credential the target forges for the case: only the target knows its
// keys and CA.
export type ForgedCredential = 'alg-none-jwt' | 'foreign-key-jwt' | 'expired-service-account-token' | 'hs256-public-key-jwt' | 'stranger-client-cert' | 'wrong-issuer-jwt';

export type Credential = { kind: 'admin' } | { kind: 'unprivileged' } | { kind: 'none' } | { kind: 'header'; value: string } | { kind: 'forged'; forged: ForgedCredential };

export interface HostileCase {
  id: number;
  // family is the generator; tag the kind of damage (PENDING_FIXES match on them).
  family: string;
  tag: string;
  what: string;
  method: string;
  // path is sent exactly as written (dot segments, doubled slashes, raw bytes).
  path: string;
  headers: [string, string][];
  body?: Buffer;
  credential: Credential;
  // snapshots are collections whose objects (name and resourceVersion) a refusal must leave as
  // they were.
  snapshots: string[];
  // expect narrows the status: 401, 403, or any 4xx (Kubernetes refuses it).
  expect?: 'unauthorized' | 'forbidden' | 'refused';
  // framing cases are not valid HTTP/1.1 requests (or not ones Node's parser takes): the answer
  // comes from the HTTP server, as Go's server answers them with text, not a Status.
  framing?: boolean;
}

// caseLabel names a case in failure messages.
export function caseLabel(c: HostileCase): string {
  return `#${c.id} ${c.family}/${c.tag}: ${c.method} ${c.path.length > 120 ? c.path.slice(0, 120) + '…' : c.path} (${c.what})`;
}

export type CaseDraft = Omit<HostileCase, 'id'>;
