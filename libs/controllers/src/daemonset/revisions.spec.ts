import { computeHash } from './revision-hash';
import { constructHistory, revisionData, revisionsToTrim } from './revisions';
import { ControllerRevision, DaemonSet, Pod } from '@plinth/api';

function daemonSet(image: string, extra: Partial<DaemonSet['spec']> = {}, collisionCount?: number): DaemonSet {
  return {
    metadata: { name: 'ds', namespace: 'ns', uid: 'u1' },
    spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image }] } }, ...extra },
    status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, collisionCount },
  };
}

function revisionFor(image: string, revision: number, opts: { name?: string; hashLabel?: boolean; owner?: string } = {}): ControllerRevision {
  const ds = daemonSet(image);
  const hash = computeHash(ds.spec!.template!);
  const name = opts.name ?? `ds-${hash}`;
  return {
    metadata: {
      name,
      labels: opts.hashLabel === false ? { app: 'a' } : { app: 'a', 'controller-revision-hash': opts.name ?? hash },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: opts.owner ?? 'u1', controller: true }],
    },
    data: revisionData(ds),
    revision,
  };
}

const podWithHash = (name: string, hash: string): Pod => ({ metadata: { name, labels: { app: 'a', 'controller-revision-hash': hash } } });

describe('constructHistory', () => {
  it('creates the first revision', () => {
    const plan = constructHistory(daemonSet('i:1'), [], []);
    const hash = computeHash(daemonSet('i:1').spec!.template!);
    expect(plan.hash).toBe(hash);
    expect(plan.create?.metadata).toMatchObject({ name: `ds-${hash}`, namespace: 'ns', labels: { app: 'a', 'controller-revision-hash': hash } });
    expect(plan.create?.metadata.ownerReferences?.[0]).toMatchObject({ uid: 'u1', controller: true });
    expect(plan.create?.revision).toBe(1);
    expect(plan.create?.data).toEqual({ spec: { template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] }, $patch: 'replace' } } });
  });

  it('creates the next revision after the old ones, ignoring revisions of other owners', () => {
    const plan = constructHistory(daemonSet('i:3'), [revisionFor('i:1', 1), revisionFor('i:2', 4), revisionFor('i:9', 7, { owner: 'other' })], []);
    expect(plan.create?.revision).toBe(5);
    expect(plan.old.map((r) => r.revision)).toEqual([1, 4]);
  });

  it('finds the current revision and renumbers it after a rollback', () => {
    const plan = constructHistory(daemonSet('i:1'), [revisionFor('i:1', 1), revisionFor('i:2', 2)], []);
    expect(plan.create).toBeUndefined();
    expect(plan.current.revision).toBe(3);
    expect(plan.update.map((r) => [r.metadata.name, r.revision])).toEqual([[plan.current.metadata.name, 3]]);
  });

  it('adds a missing hash label from the name', () => {
    const plan = constructHistory(daemonSet('i:1'), [revisionFor('i:1', 1, { name: 'ds-legacy', hashLabel: false })], []);
    expect(plan.hash).toBe('ds-legacy');
    expect(plan.update.map((r) => r.metadata.labels?.['controller-revision-hash'])).toEqual(['ds-legacy']);
  });

  it('keeps the highest of duplicate current revisions and relabels the pods of the others', () => {
    const keep = revisionFor('i:1', 3);
    const duplicate = revisionFor('i:1', 2, { name: 'ds-dup' });
    const plan = constructHistory(daemonSet('i:1'), [duplicate, keep], [podWithHash('p1', 'ds-dup'), podWithHash('p2', 'other')]);
    expect(plan.current.metadata.name).toBe(keep.metadata.name);
    expect(plan.delete).toEqual(['ds-dup']);
    expect(plan.relabel).toEqual([{ name: 'p1', hash: plan.hash }]);
  });

  it('raises collisionCount when the name is taken by another template', () => {
    const ds = daemonSet('i:2');
    const taken = { ...revisionFor('i:1', 1), metadata: { ...revisionFor('i:1', 1).metadata, name: `ds-${computeHash(ds.spec!.template!)}` } };
    const plan = constructHistory(ds, [taken], []);
    expect(plan.collisionCount).toBe(1);
    expect(plan.create?.metadata.name).toBe(`ds-${computeHash(ds.spec!.template!, 1)}`);
  });
});

describe('revisionsToTrim', () => {
  const old = [1, 2, 3, 4, 5].map((n) => revisionFor(`i:${n}`, n));
  it.each([
    ['within the limit', 5, [], []],
    ['two over the limit: the oldest two', 3, [], [1, 2]],
    ['a live pod keeps its revision', 3, [1], [2, 3]],
    ['limit 0 with live pods on two', 0, [2, 4], [1, 3, 5]],
  ])('%s', (_name, limit, liveRevisions, trimmed) => {
    const pods = (liveRevisions as number[]).map((n) => podWithHash(`p${n}`, old[n - 1].metadata.labels!['controller-revision-hash']));
    const names = revisionsToTrim(daemonSet('i:9', { revisionHistoryLimit: limit as number }), old, pods);
    expect(names).toEqual((trimmed as number[]).map((n) => old[n - 1].metadata.name));
  });
});

describe('revisionData', () => {
  it('is the patch that replaces the template, its members sorted as Go encodes a map', () => {
    const ds = daemonSet('img');
    ds.spec!.template!.spec!.nodeSelector = { zone: 'a', arch: 'x' };
    expect(JSON.stringify(revisionData(ds))).toBe(
      '{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"image":"img","name":"c"}],"nodeSelector":{"arch":"x","zone":"a"}}}}}',
    );
  });
});
