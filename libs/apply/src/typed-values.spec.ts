import { s } from '@plinth/api';
import { typedValueErrors } from './typed-values';

// The texts are kube-apiserver 1.28.7's, answering server-side applies of a Job with these
// spec fields.
const schema = s.object({
  spec: s.object({
    parallelism: s.int32(),
    suspend: s.bool(),
    completionMode: s.string(),
    containers: s.mapList(s.object({ name: s.string(), ports: s.mapList(s.object({ containerPort: s.int32(), protocol: s.string() }), ['containerPort', 'protocol']) }), ['name']),
    args: s.list(s.string()),
  }),
});

const errorsOf = (spec: unknown) => typedValueErrors({ spec }, schema).map((e) => `${e.path}: ${e.message}`);

describe('typedValueErrors', () => {
  it('names the Go type of a value given to a numeric field', () => {
    expect(errorsOf({ parallelism: true })).toEqual(['.spec.parallelism: expected numeric (int or float), got bool']);
    expect(errorsOf({ parallelism: [1] })).toEqual(['.spec.parallelism: expected numeric (int or float), got []interface {}']);
    expect(errorsOf({ parallelism: { a: 1 } })).toEqual(['.spec.parallelism: expected numeric (int or float), got map[string]interface {}']);
  });

  it('prints the value given to a boolean field, and its Go syntax given to a string field', () => {
    expect(errorsOf({ suspend: 'yes' })).toEqual(['.spec.suspend: expected boolean, got &{yes}']);
    expect(errorsOf({ suspend: 3 })).toEqual(['.spec.suspend: expected boolean, got &{3}']);
    expect(errorsOf({ completionMode: 5 })).toEqual(['.spec.completionMode: expected string, got &value.valueUnstructured{Value:5}']);
    expect(errorsOf({ completionMode: true })).toEqual(['.spec.completionMode: expected string, got &value.valueUnstructured{Value:true}']);
    expect(errorsOf({ completionMode: ['a'] })).toEqual(['.spec.completionMode: expected string, got &value.valueUnstructured{Value:[]interface {}{"a"}}']);
  });

  it('visits keys in sorted order, keyed list entries by key (defaults included) and others by index', () => {
    expect(errorsOf({ suspend: 'yes', parallelism: 'x' })).toEqual(['.spec.parallelism: expected numeric (int or float), got string', '.spec.suspend: expected boolean, got &{yes}']);
    expect(errorsOf({ containers: [{ name: 'main', ports: [{ containerPort: '80' }] }], args: [1] })).toEqual([
      '.spec.args[0]: expected string, got &value.valueUnstructured{Value:1}',
      '.spec.containers[name="main"].ports[containerPort="80",protocol="TCP"].containerPort: expected numeric (int or float), got string',
    ]);
  });

  it('accepts values of their fields types, and nulls', () => {
    expect(errorsOf({ parallelism: 2, suspend: false, completionMode: 'Indexed', args: ['a'], containers: [{ name: 'c', ports: null }] })).toEqual([]);
  });
});
