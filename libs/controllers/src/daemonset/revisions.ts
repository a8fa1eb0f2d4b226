// The DaemonSet's ControllerRevision history, after constructHistory, snapshot,
// dedupCurHistories and cleanupHistory (daemon_controller.go, update.go v1.28). A revision holds
// the patch that replaces spec.template; the current one is named `<ds>-<hash>` and labelled
// with the hash, which new pods carry too.
import { controllerRef } from './pod-template';
import { canonicalJSON, computeHash } from './revision-hash';
import { ControllerRevision, ControllerRevisionHashLabel, DaemonSet, Pod } from '@plinth/api';

export interface HistoryPlan {
  // current is the revision of the DaemonSet's template, existing or to be created.
  current: ControllerRevision;
  hash: string;
  old: ControllerRevision[];
  create?: ControllerRevision;
  // update holds revisions given the hash label or a higher revision number.
  update: ControllerRevision[];
  // delete names duplicate current revisions.
  delete: string[];
  // relabel holds pods of a deleted duplicate, to move onto the kept revision's hash.
  relabel: { name: string; hash: string }[];
  collisionCount?: number;
}

// revisionData is getPatch: {"spec":{"template":{"$patch":"replace",...}}}, its members in
// sorted order at every level as Go's encoding of a map writes them: kubectl rollout undo compares
// the revision's data byte for byte with its own encoding of the DaemonSet's template to tell
// that a revision is already the current one.
export function revisionData(ds: DaemonSet): unknown {
  return withSortedKeys({ spec: { template: { ...structuredClone(ds.spec?.template ?? {}), $patch: 'replace' } } });
}

function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, withSortedKeys(v)]));
}

export function revisionMatches(ds: DaemonSet, revision: ControllerRevision): boolean {
  return canonicalJSON(revision.data) === canonicalJSON(revisionData(ds));
}

export function ownedRevisions(ds: DaemonSet, revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return revisions.filter((r) => (r.metadata.ownerReferences ?? []).some((ref) => ref.controller === true && ref.uid === ds.metadata.uid));
}

const revisionOf = (r: ControllerRevision): number => r.revision ?? 0;

// constructHistory splits the owned revisions into the current one and old ones, creating,
// relabelling, renumbering or deduplicating as needed. allRevisions are the namespace's
// revisions, consulted for name collisions.
export function constructHistory(ds: DaemonSet, allRevisions: readonly ControllerRevision[], pods: readonly Pod[]): HistoryPlan {
  const update: ControllerRevision[] = [];
  const current: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  for (let revision of ownedRevisions(ds, allRevisions)) {
    if (revision.metadata.labels?.[ControllerRevisionHashLabel] === undefined) {
      revision = structuredClone(revision);
      revision.metadata.labels = { ...(revision.metadata.labels ?? {}), [ControllerRevisionHashLabel]: revision.metadata.name ?? '' };
      update.push(revision);
    }
    (revisionMatches(ds, revision) ? current : old).push(revision);
  }
  const next = Math.max(0, ...old.map(revisionOf)) + 1;
  if (current.length === 0) {
    const { revision, collisionCount } = snapshot(ds, next, allRevisions);
    return { current: revision, hash: hashOf(revision), old, create: revision, update, delete: [], relabel: [], collisionCount };
  }
  let keep = current[0];
  for (const revision of current) if (revisionOf(revision) >= revisionOf(keep)) keep = revision;
  const duplicates = current.filter((r) => r !== keep);
  const duplicateHashes = new Set(duplicates.map(hashOf));
  const hash = hashOf(keep);
  const relabel = pods.filter((p) => duplicateHashes.has(p.metadata.labels?.[ControllerRevisionHashLabel] ?? '')).map((p) => ({ name: p.metadata.name ?? '', hash }));
  if (revisionOf(keep) < next) {
    keep = { ...structuredClone(keep), revision: next };
    const at = update.findIndex((r) => r.metadata.name === keep.metadata.name);
    if (at >= 0) update[at] = keep;
    else update.push(keep);
  }
  return { current: keep, hash, old, update, delete: duplicates.map((r) => r.metadata.name ?? ''), relabel, collisionCount: ds.status?.collisionCount ?? undefined };
}

function hashOf(revision: ControllerRevision): string {
  return revision.metadata.labels?.[ControllerRevisionHashLabel] ?? '';
}

// snapshot builds the revision for the template, raising collisionCount while its name is
// taken by a revision of another template.
function snapshot(ds: DaemonSet, revision: number, allRevisions: readonly ControllerRevision[]): { revision: ControllerRevision; collisionCount?: number } {
  let collisionCount = ds.status?.collisionCount ?? undefined;
  for (;;) {
    const hash = computeHash(ds.spec?.template ?? {}, collisionCount);
    const name = `${ds.metadata.name}-${hash}`;
    const taken = allRevisions.find((r) => r.metadata.name === name);
    if (taken && !revisionMatches(ds, taken)) {
      collisionCount = (collisionCount ?? 0) + 1;
      continue;
    }
    const created: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: ds.metadata.namespace,
        labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [ControllerRevisionHashLabel]: hash },
        ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
        ownerReferences: [controllerRef(ds)],
      },
      data: revisionData(ds),
      revision,
    };
    return { revision: created, collisionCount };
  }
}

// revisionsToTrim is cleanupHistory: the oldest old revisions beyond revisionHistoryLimit,
// except those some live pod still carries the hash of.
export function revisionsToTrim(ds: DaemonSet, old: readonly ControllerRevision[], pods: readonly Pod[]): string[] {
  let toKill = old.length - (ds.spec?.revisionHistoryLimit ?? 10);
  if (toKill <= 0) return [];
  const live = new Set(pods.map((p) => p.metadata.labels?.[ControllerRevisionHashLabel]).filter((h): h is string => Boolean(h)));
  const result: string[] = [];
  for (const revision of [...old].sort((a, b) => revisionOf(a) - revisionOf(b))) {
    if (toKill <= 0) break;
    if (live.has(hashOf(revision))) continue;
    result.push(revision.metadata.name ?? '');
    toKill--;
  }
  return result;
}
