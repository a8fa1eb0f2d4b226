import { PatchError } from './errors';
import { applyJsonPatch, maxJSONPatchOperations } from './json-patch';

function failure(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PatchError) return err;
    throw err;
  }
  throw new Error('expected a PatchError');
}

const invalidStatus = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server rejected our request due to an error in our request',
  reason: 'Invalid',
  details: {},
  code: 422,
};

describe('applyJsonPatch: RFC 6902 Appendix A', () => {
  const examples: [string, unknown, unknown[], unknown][] = [
    ['A.1 adding an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
    ['A.2 adding an array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
    ['A.3 removing an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    ['A.4 removing an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    ['A.5 replacing a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
    [
      'A.6 moving a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    ['A.7 moving an array element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
    [
      'A.8 testing a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    ['A.10 adding a nested member object', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }],
    ['A.11 ignoring unrecognized elements', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], { foo: 'bar', baz: 'qux' }],
    ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    ['A.16 adding an array value', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
  ];

  it.each(examples)('%s', (_name, doc, ops, result) => {
    expect(applyJsonPatch(doc, ops)).toEqual(result);
  });

  it('A.9 testing a value: error', () => {
    const err = failure(() => applyJsonPatch({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]));
    expect(err.errStatus).toEqual(invalidStatus);
    expect(err.detail).toBe('testing value /baz failed: test failed');
  });

  it('A.12 adding to a nonexistent target', () => {
    const err = failure(() => applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]));
    expect(err.statusCode).toBe(422);
    expect(err.detail).toBe('add operation does not apply: doc is missing path: "/baz/bat": missing value');
  });

  it('A.15 comparing strings and numbers', () => {
    const err = failure(() => applyJsonPatch({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]));
    expect(err.detail).toBe('testing value /~01 failed: test failed');
  });
});

describe('applyJsonPatch on a Pod', () => {
  const pod = () => ({
    metadata: { name: 'web', labels: { app: 'web' }, finalizers: ['a', 'b'] },
    spec: { containers: [{ name: 'c', image: 'nginx:1', env: [{ name: 'A', value: '1' }] }] },
  });

  it('edits nested lists and maps, with escaped keys', () => {
    const out = applyJsonPatch(pod(), [
      { op: 'replace', path: '/spec/containers/0/image', value: 'nginx:2' },
      { op: 'add', path: '/spec/containers/0/env/-', value: { name: 'B', value: '2' } },
      { op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'web' },
      { op: 'remove', path: '/metadata/finalizers/0' },
      { op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/copy' },
    ]);
    expect(out).toEqual({
      metadata: { name: 'web', labels: { app: 'web', 'app.kubernetes.io/name': 'web', copy: 'web' }, finalizers: ['b'] },
      spec: { containers: [{ name: 'c', image: 'nginx:2', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] },
    });
  });

  it('does not change the document or the operations', () => {
    const doc = pod();
    const ops = [{ op: 'add', path: '/metadata/labels/x', value: { deep: ['v'] } }];
    const out = applyJsonPatch(doc, ops) as ReturnType<typeof pod> & { metadata: { labels: Record<string, unknown> } };
    expect(doc).toEqual(pod());
    (out.metadata.labels.x as { deep: string[] }).deep.push('w');
    expect(ops[0].value).toEqual({ deep: ['v'] });
  });

  it('applies nothing when a later operation fails', () => {
    const doc = pod();
    failure(() =>
      applyJsonPatch(doc, [
        { op: 'replace', path: '/metadata/name', value: 'other' },
        { op: 'test', path: '/metadata/name', value: 'web' },
      ]),
    );
    expect(doc.metadata.name).toBe('web');
  });

  it('takes a null body as no operations', () => {
    expect(applyJsonPatch(pod(), null)).toEqual(pod());
  });
});

describe('applyJsonPatch: evanphx v4 behaviour that Kubernetes keeps', () => {
  it.each([
    ['negative index counts from the end (add -1 appends)', { foo: ['bar', 'baz'] }, { op: 'add', path: '/foo/-1', value: 'qux' }, { foo: ['bar', 'baz', 'qux'] }],
    ['negative index on an empty list', { foo: [] }, { op: 'add', path: '/foo/-1', value: 'qux' }, { foo: ['qux'] }],
    ['negative index on remove', { foo: ['bar', 'qux', 'baz'] }, { op: 'remove', path: '/foo/-2' }, { foo: ['bar', 'baz'] }],
    ['negative index on replace', { foo: ['bar', 'baz'] }, { op: 'replace', path: '/foo/-1', value: 'x' }, { foo: ['bar', 'x'] }],
    ['replace of a missing member adds it', { foo: 'bar' }, { op: 'replace', path: '/baz', value: 1 }, { foo: 'bar', baz: 1 }],
    ['copy of a missing member copies null', { foo: 'bar' }, { op: 'copy', from: '/nope', path: '/baz' }, { foo: 'bar', baz: null }],
    ['an absent value adds null', { foo: 'bar' }, { op: 'add', path: '/baz' }, { foo: 'bar', baz: null }],
    ['copying a list into its own element', { foo: ['bar'] }, { op: 'copy', from: '/foo', path: '/foo/0' }, { foo: [['bar'], 'bar'] }],
    ['test of a missing member against null passes', { baz: 'qux' }, { op: 'test', path: '/foo', value: null }, { baz: 'qux' }],
    ['remove of a null member', { foo: 'bar', qux: { baz: 1, bar: null } }, { op: 'remove', path: '/qux/bar' }, { foo: 'bar', qux: { baz: 1 } }],
  ])('%s', (_name, doc, op, result) => {
    expect(applyJsonPatch(doc, [op])).toEqual(result);
  });

  it.each([
    ['remove of a missing member', { a: { b: { d: 1 } } }, { op: 'remove', path: '/a/b/c' }, "error in remove for path: '/a/b/c': Unable to remove nonexistent key: c: missing value"],
    ['remove past the end', { a: { b: [1] } }, { op: 'remove', path: '/a/b/1' }, "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index referenced"],
    ['remove of "-"', { foo: [] }, { op: 'remove', path: '/foo/-' }, 'error in remove for path: \'/foo/-\': strconv.Atoi: parsing "-": invalid syntax'],
    ['move from a missing member', { a: { b: { d: 1 } } }, { op: 'move', from: '/a/b/c', path: '/a/b/e' }, "error in move for path: 'c': Unable to remove nonexistent key: c: missing value"],
    ['move past the end', { foo: ['all', 'grass', 'cows', 'eat'] }, { op: 'move', from: '/foo/1', path: '/foo/4' }, "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index referenced"],
    ['replace past the end', { foo: ['bar', 'baz'] }, { op: 'replace', path: '/foo/2', value: 'bum' }, 'replace operation does not apply: doc is missing key: /foo/2: missing value'],
    ['replace under a missing member', { name: { foo: 'bat' } }, { op: 'replace', path: '/foo/bar', value: 'baz' }, 'replace operation does not apply: doc is missing path: /foo/bar: missing value'],
    ['add too far before the start', { foo: ['bar', 'baz'] }, { op: 'add', path: '/foo/-4', value: 'bum' }, "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index referenced"],
    ['add past the end', { foo: ['bar'] }, { op: 'add', path: '/foo/2', value: 'bum' }, "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index referenced"],
    ['copy past the end', { foo: ['bar'] }, { op: 'copy', path: '/foo/2', from: '/foo/0' }, "error while adding value during copy: Unable to access invalid index: 2: invalid index referenced"],
    ['the whole document', { foo: 'bar' }, { op: 'add', path: '', value: 'qux' }, 'add operation does not apply: doc is missing path: "": missing value'],
    ['a missing path field', { foo: 'bar' }, { op: 'add', pathz: '/baz', value: 'qux' }, 'add operation failed to decode path: missing value'],
    ['a null op', {}, { op: null, path: '' }, 'Unexpected kind: unknown'],
    ['an unknown op', {}, { op: 'append', path: '/a' }, 'Unexpected kind: append'],
    ['test with no value', { foo: [] }, { op: 'test', path: '/foo' }, 'testing value /foo failed: test failed'],
    ['test of an object against null', { foo: {} }, { op: 'test', path: '/foo', value: null }, 'testing value /foo failed: test failed'],
    ['a path through a scalar', { foo: 'bar' }, { op: 'test', path: '/foo/x', value: 1 }, 'test operation does not apply: is missing path: /foo/x: missing value'],
  ])('%s is 422 with the generic message', (_name, doc, op, detail) => {
    const err = failure(() => applyJsonPatch(doc, [op]));
    expect(err.errStatus).toEqual(invalidStatus);
    expect(err.message).toBe('the server rejected our request due to an error in our request');
    expect(err.detail).toBe(detail);
  });

  it('bounds the accumulated size of copies (3 MiB by default)', () => {
    const doc = { foo: ['A', 'A'.repeat(49)] };
    const ops = [
      { op: 'copy', path: '/foo/-', from: '/foo/1' },
      { op: 'copy', path: '/foo/-', from: '/foo/1' },
    ];
    const err = failure(() => applyJsonPatch(doc, ops, { maxCopyBytes: 100 }));
    expect(err.statusCode).toBe(422);
    expect(err.detail).toBe('Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the limit 100');
    expect(applyJsonPatch({ foo: ['A', 'A'.repeat(48)] }, ops, { maxCopyBytes: 100 })).toEqual({ foo: ['A', 'A'.repeat(48), 'A'.repeat(48), 'A'.repeat(48)] });
    expect(applyJsonPatch(doc, ops)).toEqual({ foo: ['A', 'A'.repeat(49), 'A'.repeat(49), 'A'.repeat(49)] });
  });
});

describe('applyJsonPatch: request errors', () => {
  it.each([
    [{ op: 'add' }, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['ops', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch'],
    [['add'], 'json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
    [[[]], 'json: cannot unmarshal array into Go value of type jsonpatch.Operation'],
  ])('answers 400 for the body %j', (body, message) => {
    const err = failure(() => applyJsonPatch({}, body));
    expect(err.errStatus).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
  });

  it(`answers 413 above ${maxJSONPatchOperations} operations`, () => {
    const op = { op: 'test', path: '/a', value: 1 };
    expect(applyJsonPatch({ a: 1 }, Array(maxJSONPatchOperations).fill(op))).toEqual({ a: 1 });
    const err = failure(() => applyJsonPatch({ a: 1 }, Array(maxJSONPatchOperations + 1).fill(op)));
    expect(err.errStatus).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
      reason: 'RequestEntityTooLarge',
      code: 413,
    });
  });
});
