// computeHash is controller.ComputeHash: FNV-32a over the pod template and the collision count,
// rendered with rand.SafeEncodeString. The template is hashed as canonical JSON (sorted keys)
// where Go hashes its spew dump, so the values differ from Kubernetes' but are just as stable.
import { PodTemplateSpec } from '@plinth/api';

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

// canonicalJSON is JSON with object keys sorted at every level and undefined members dropped.
export function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJSON(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let hash = seed;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

// safeEncodeString maps each character onto an alphabet without vowels, so that the result
// cannot spell words.
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}

export function computeHash(template: PodTemplateSpec, collisionCount?: number): string {
  let hash = fnv32a(new TextEncoder().encode(canonicalJSON(template)));
  if (collisionCount !== undefined && collisionCount !== null) {
    const count = new Uint8Array(4);
    new DataView(count.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(count, hash);
  }
  return safeEncodeString(String(hash));
}
