import { applyMergePatch, mergePatch } from './json-merge-patch';
import { PatchError } from './errors';

describe('applyMergePatch', () => {
  // RFC 7386 Appendix A, every example.
  const rfcExamples: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];

  it.each(rfcExamples)('RFC 7386 example: %j + %j', (target, patch, result) => {
    expect(applyMergePatch(target, patch)).toEqual(result);
  });

  it('merges a label into metadata and deletes another', () => {
    const pod = { metadata: { name: 'p', labels: { app: 'web', tier: 'fe' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    expect(applyMergePatch(pod, { metadata: { labels: { tier: null, env: 'prod' } } })).toEqual({
      metadata: { name: 'p', labels: { app: 'web', env: 'prod' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
  });

  it('replaces lists as a whole', () => {
    const pod = { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } };
    expect(applyMergePatch(pod, { spec: { containers: [{ name: 'b', image: 'z' }] } })).toEqual({ spec: { containers: [{ name: 'b', image: 'z' }] } });
  });

  it('drops null members of objects inside a replacing list, as evanphx does, and keeps null elements', () => {
    expect(applyMergePatch({ a: 'x' }, { list: [{ name: 'n', gone: null }, null] })).toEqual({ a: 'x', list: [{ name: 'n' }, null] });
  });

  it('changes neither the target nor the patch', () => {
    const target = { a: { b: 1 } };
    const patch = { a: { c: 2, d: null } };
    const result = applyMergePatch(target, patch) as { a: Record<string, unknown> };
    expect(target).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { c: 2, d: null } });
    result.a.b = 5;
    expect(target.a.b).toBe(1);
  });

  it('keeps "__proto__" as an ordinary member', () => {
    const result = applyMergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('mergePatch', () => {
  it.each([null, 'x', 1, true])('answers 400 Invalid JSON Patch for the body %j', (body) => {
    try {
      mergePatch({ a: 1 }, body);
      throw new Error('expected a PatchError');
    } catch (err) {
      expect(err).toBeInstanceOf(PatchError);
      const e = err as PatchError;
      expect(e.statusCode).toBe(400);
      expect(e.errStatus).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Invalid JSON Patch', reason: 'BadRequest', code: 400 });
    }
  });

  it('merges an object body and lets an array body replace the document', () => {
    expect(mergePatch({ a: 1 }, { b: 2 })).toEqual({ a: 1, b: 2 });
    expect(mergePatch({ a: 1 }, [1])).toEqual([1]);
  });
});
