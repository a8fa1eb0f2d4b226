import { builtinDefinitions, ResourceDefinition } from '@plinth/registry';
import { customResourceMetadataError, goSyntax, goTypeError } from './go-types';

const definition = (kind: string): ResourceDefinition => {
  const def = builtinDefinitions().find((d) => d.kind === kind);
  if (!def) throw new Error(`no ${kind}`);
  return def;
};
const check = (kind: string, object: unknown) => goTypeError(object, definition(kind).schema, kind);

describe('goTypeError', () => {
  it('accepts well-typed objects, nulls and fields the schema does not describe', () => {
    expect(check('Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', labels: { x: 'y' } }, spec: { finalizers: ['kubernetes'] } })).toBeNull();
    expect(check('Job', { metadata: { name: null, annotations: null }, spec: { parallelism: null, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } })).toBeNull();
    expect(check('Namespace', { metadata: { name: 'a' }, bogus: 5, spec: { other: [1] } })).toBeNull();
  });

  it('names the struct, the JSON path and the Go type, as encoding/json does', () => {
    expect(check('Namespace', { metadata: 5 })).toBe('json: cannot unmarshal number into Go struct field Namespace.metadata of type v1.ObjectMeta');
    expect(check('Namespace', { metadata: { name: 5 } })).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string');
    expect(check('Pod', { metadata: { labels: [1] } })).toBe('json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string');
    expect(check('Pod', { metadata: { labels: { a: 1 } } })).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    expect(check('Job', { spec: { parallelism: '2' } })).toBe('json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32');
    expect(check('Job', { spec: { parallelism: 1.5 } })).toBe('json: cannot unmarshal number 1.5 into Go struct field JobSpec.spec.parallelism of type int32');
    expect(check('Job', { spec: { suspend: 'yes' } })).toBe('json: cannot unmarshal string into Go struct field JobSpec.spec.suspend of type bool');
  });

  it('reports the first error in document order, inside list items by their element struct', () => {
    const pod = { spec: { containers: [{ name: 'ok', image: 'i' }, { name: 'bad', image: 7 }], restartPolicy: 5 } };
    expect(check('Pod', pod)).toBe('json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string');
    expect(check('Pod', { spec: { containers: 'no' } })).toBe('json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container');
  });

  it('reads times as metav1.Time and MicroTime do', () => {
    const lease = (renewTime: unknown) => ({ spec: { renewTime } });
    expect(check('Lease', lease('2026-01-02T03:04:05.123456Z'))).toBeNull();
    expect(check('Lease', lease('garbage'))).toBe('parsing time "garbage" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "garbage" as "2006"');
    expect(check('Lease', lease(5))).toBe('json: cannot unmarshal number into Go value of type string');
    expect(check('Namespace', { metadata: { creationTimestamp: 'soon' } })).toBe('parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"');
  });

  it('takes int-or-string values of either kind', () => {
    const ds = (maxUnavailable: unknown) => ({ spec: { updateStrategy: { rollingUpdate: { maxUnavailable } } } });
    expect(check('DaemonSet', ds(1))).toBeNull();
    expect(check('DaemonSet', ds('25%'))).toBeNull();
    expect(check('DaemonSet', ds(true))).toMatch(/^json: cannot unmarshal bool into Go struct field \w+\.spec\.updateStrategy\.rollingUpdate\.maxUnavailable of type intstr\.IntOrString$/);
  });
});

describe('customResourceMetadataError', () => {
  const schema = definition('Namespace').schema;

  it('accepts well-typed, null and absent metadata', () => {
    expect(customResourceMetadataError({ metadata: { name: 'a', labels: { x: 'y' }, finalizers: ['f'] } }, schema)).toBeNull();
    expect(customResourceMetadataError({ metadata: null }, schema)).toBeNull();
    expect(customResourceMetadataError({ spec: 1 }, schema)).toBeNull();
  });

  it('refuses metadata that does not decode into ObjectMeta, printing it with %#v as field.Invalid does', () => {
    expect(customResourceMetadataError({ metadata: { name: 'a', labels: { app: 100 } } }, schema)).toBe(
      'metadata: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"app":100}, "name":"a"}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
    );
    expect(customResourceMetadataError({ metadata: { finalizers: 'x' } }, schema)).toBe(
      'metadata: Invalid value: map[string]interface {}{"finalizers":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string',
    );
    expect(customResourceMetadataError({ metadata: 'x' }, schema)).toBe('metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta');
  });

  it('prints unstructured values as Go\'s %#v', () => {
    expect(goSyntax({ b: [1, 1.5, null, true], a: 'x' })).toBe('map[string]interface {}{"a":"x", "b":[]interface {}{1, 1.5, interface {}(nil), true}}');
  });
});
