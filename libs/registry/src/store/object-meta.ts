// Server-set metadata (uid, creationTimestamp, generation, generateName) and the metadata rules
// every type shares, after k8s.io/apiserver/pkg/registry/rest/create.go and update.go.
import { rfc3339 } from '@plinth/machinery';
import { randomBytes, randomUUID } from 'node:crypto';
import { KubeObject, ObjectMeta } from '@plinth/api';

const generateNameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

// generatedName appends five random characters, as Kubernetes' SimpleNameGenerator does,
// keeping the result within 63 characters.
export function generatedName(base: string): string {
  const trimmed = base.length > 58 ? base.slice(0, 58) : base;
  const bytes = randomBytes(5);
  let suffix = '';
  for (const byte of bytes) suffix += generateNameAlphabet[byte % generateNameAlphabet.length];
  return trimmed + suffix;
}

// wipeSystemMetadata erases what the server owns of a body to create, before its fields are
// recorded in managedFields (the resourceVersion stays: storage refuses it).
export function wipeSystemMetadata(meta: ObjectMeta): void {
  delete meta.creationTimestamp;
  delete meta.uid;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

// setResourceVersion is a resourceVersion storage refuses on create: a non-zero number.
export function setResourceVersion(meta: ObjectMeta): boolean {
  return /^\d+$/.test(meta.resourceVersion ?? '') && Number(meta.resourceVersion) !== 0;
}

// fillCreateMetadata sets what the server owns on create.
export function fillCreateMetadata(object: KubeObject, now: number, tracksGeneration: boolean): void {
  const meta = object.metadata;
  if (!meta.name && meta.generateName) meta.name = generatedName(meta.generateName);
  meta.uid = randomUUID();
  meta.creationTimestamp = rfc3339(now);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
  delete meta.selfLink;
  if (tracksGeneration) meta.generation = 1;
  else delete meta.generation;
  if (meta.finalizers && meta.finalizers.length === 0) delete meta.finalizers;
}

// keepServerMetadata restores on update the metadata clients may not change.
export function keepServerMetadata(object: KubeObject, old: KubeObject): void {
  const meta: ObjectMeta = object.metadata;
  meta.creationTimestamp = old.metadata.creationTimestamp;
  if (!meta.uid) meta.uid = old.metadata.uid;
  meta.generation = old.metadata.generation;
  if (meta.generation === undefined) delete meta.generation;
  meta.deletionTimestamp = old.metadata.deletionTimestamp;
  // An update that leaves deletionGracePeriodSeconds out keeps the old one; one that changes it
  // is refused by validation (rest.BeforeUpdate, ValidateObjectMetaAccessorUpdate).
  if (meta.deletionGracePeriodSeconds === undefined || meta.deletionGracePeriodSeconds === null) meta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
  if (meta.deletionTimestamp === undefined) delete meta.deletionTimestamp;
  if (meta.deletionGracePeriodSeconds === undefined) delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  if (meta.finalizers && meta.finalizers.length === 0) delete meta.finalizers;
}

// specChanged is whether anything besides metadata and status differs: what bumps generation.
export function specChanged(object: KubeObject, old: KubeObject): boolean {
  return stableJson(withoutMetaAndStatus(object)) !== stableJson(withoutMetaAndStatus(old));
}

function withoutMetaAndStatus(object: KubeObject): Record<string, unknown> {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = object;
  return rest;
}

// stableJson serializes with sorted keys, so semantically equal objects compare equal.
const int64Key = `\u0000int64:${randomUUID()}`;

export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    // an int64 beyond 2^53 (withBigInts) compares by its digits, under a key no object has
    return typeof v === 'bigint' ? { [int64Key]: String(v) } : v;
  });
}
