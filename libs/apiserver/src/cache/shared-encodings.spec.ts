import { SharedEncodings } from './shared-encodings';

describe('SharedEncodings', () => {
  const bytes = (text: string) => Buffer.from(text);

  it('answers each key with what was set for it, the first and the others alike', () => {
    const shared = new SharedEncodings();
    expect(shared.get('json v1 ADDED')).toBeUndefined();
    const json = bytes('{"type":"ADDED"}\n');
    const protobuf = bytes('k8s');
    const aliased = bytes('{"type":"ADDED","object":{}}\n');
    shared.set('json v1 ADDED', json);
    shared.set('protobuf v1 ADDED', protobuf);
    shared.set('json example.k8s.io/v1 ADDED', aliased);
    expect(shared.get('json v1 ADDED')).toBe(json);
    expect(shared.get('protobuf v1 ADDED')).toBe(protobuf);
    expect(shared.get('json example.k8s.io/v1 ADDED')).toBe(aliased);
    expect(shared.get('json v1 DELETED')).toBeUndefined();
  });

  it('replaces what a key held, first or not', () => {
    const shared = new SharedEncodings();
    shared.set('a', bytes('1'));
    shared.set('b', bytes('2'));
    const first = bytes('3');
    const second = bytes('4');
    shared.set('a', first);
    shared.set('b', second);
    expect(shared.get('a')).toBe(first);
    expect(shared.get('b')).toBe(second);
  });
});
