import { KubeObject } from '@plinth/api';
import { Interner } from './interner';

// parsed gives an object as storage's decoding does: its own copy of every part.
function parsed(name: string, fieldsV1: unknown = { 'f:spec': { 'f:holderIdentity': {} } }, time = '2026-11-26T02:22:12Z'): KubeObject {
  return JSON.parse(
    JSON.stringify({
      metadata: {
        name,
        namespace: 'team-a',
        creationTimestamp: time,
        labels: { app: 'web', tier: 'front' },
        managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'coordination.k8s.io/v1', time, fieldsType: 'FieldsV1', fieldsV1 }],
      },
      spec: { holderIdentity: name },
    }),
  ) as KubeObject;
}

describe('Interner', () => {
  it('shares equal field sets between objects, frozen all the way down, and leaves what they say as it was', () => {
    const interner = new Interner();
    const [a, b] = [parsed('a'), parsed('b')];
    const before = JSON.stringify(b);
    interner.shareRepeatedParts(a);
    interner.shareRepeatedParts(b);
    expect(JSON.stringify(b)).toBe(before);
    const [fa, fb] = [a.metadata.managedFields![0].fieldsV1!, b.metadata.managedFields![0].fieldsV1!];
    expect(fb).toBe(fa);
    expect(Object.isFrozen(fa) && Object.isFrozen(fa['f:spec'])).toBe(true);
    expect(() => {
      'use strict';
      (fa['f:spec'] as Record<string, unknown>)['f:other'] = {};
    }).toThrow(TypeError);
  });

  it('shares labels and whole managed-fields lists when equal, and the field sets of entries written at other times', () => {
    const interner = new Interner();
    const [a, b, later] = [parsed('a'), parsed('b'), parsed('later', undefined, '2026-11-26T02:22:13Z')];
    for (const object of [a, b, later]) interner.shareRepeatedParts(object);
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect(Object.isFrozen(a.metadata.labels)).toBe(true);
    expect(b.metadata.managedFields).toBe(a.metadata.managedFields);
    expect(Object.isFrozen(a.metadata.managedFields![0])).toBe(true);
    expect(later.metadata.managedFields).not.toBe(a.metadata.managedFields);
    expect(later.metadata.managedFields![0].time).toBe('2026-11-26T02:22:13Z');
    expect(later.metadata.managedFields![0].fieldsV1).toBe(a.metadata.managedFields![0].fieldsV1);
  });

  it('keeps field sets that differ apart', () => {
    const interner = new Interner();
    const [a, b] = [parsed('a'), parsed('b', { 'f:spec': { 'f:leaseDurationSeconds': {} } })];
    interner.shareRepeatedParts(a);
    interner.shareRepeatedParts(b);
    expect(b.metadata.managedFields![0].fieldsV1).not.toBe(a.metadata.managedFields![0].fieldsV1);
    expect(b.metadata.managedFields![0].fieldsV1).toEqual({ 'f:spec': { 'f:leaseDurationSeconds': {} } });
  });

  it('starts its tables afresh once they are full: later objects no longer find what was shared before', () => {
    const interner = new Interner(1);
    const labelled = (app: string) => JSON.parse(JSON.stringify({ metadata: { labels: { app } } })) as KubeObject;
    const [a, b, c, d] = [labelled('web'), labelled('db'), labelled('web'), labelled('web')];
    for (const object of [a, b, c, d]) interner.shareRepeatedParts(object);
    expect(c.metadata.labels).not.toBe(a.metadata.labels);
    expect(c.metadata.labels).toEqual(a.metadata.labels);
    expect(d.metadata.labels).toBe(c.metadata.labels);
  });

  it('passes over metadata it cannot read (no managed fields, or entries that are not objects)', () => {
    const interner = new Interner();
    const odd = { metadata: { name: 'odd', managedFields: [null, 'text', { fieldsV1: null, manager: 7 }] } } as unknown as KubeObject;
    interner.shareRepeatedParts(odd);
    expect(odd.metadata.managedFields).toEqual([null, 'text', { fieldsV1: null, manager: 7 }]);
    const bare = { metadata: { name: 'bare' } } as KubeObject;
    interner.shareRepeatedParts(bare);
    expect(bare).toEqual({ metadata: { name: 'bare' } });
  });
});
