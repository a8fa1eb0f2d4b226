import { childPath, FieldPath, newPath, pathString } from './field-path';

describe('FieldPath', () => {
  it('prints children with dots, indexes and keys in brackets', () => {
    expect(newPath('spec', 'template', 'spec').child('containers').index(0).child('name').toString()).toBe(
      'spec.template.spec.containers[0].name',
    );
    expect(newPath('metadata', 'labels').key('foo').toString()).toBe('metadata.labels[foo]');
    expect(newPath('metadata').child('annotations').key('a.b/c').toString()).toBe('metadata.annotations[a.b/c]');
    expect(FieldPath.new('items').index(2).index(3).toString()).toBe('items[2][3]');
  });

  it('is immutable and knows its root', () => {
    const spec = newPath('spec');
    const a = spec.child('a');
    const b = spec.child('b');
    expect([a.toString(), b.toString(), spec.toString()]).toEqual(['spec.a', 'spec.b', 'spec']);
    expect(a.root().toString()).toBe('spec');
  });

  it('prints a nil path as <nil>, and a child of nil as a root', () => {
    expect(pathString(null)).toBe('<nil>');
    expect(childPath(null, 'values').index(0).key('a').toString()).toBe('values[0][a]');
    expect(childPath(newPath('x'), 'values').toString()).toBe('x.values');
  });
});
