import { builtinDefinitions, ResourceDefinition } from '@plinth/registry';
import { parseStrictJson } from './strict-json';
import { decodeGoTypes } from './go-types';

const definition = (kind: string): ResourceDefinition => {
  const def = builtinDefinitions().find((d) => d.kind === kind);
  if (!def) throw new Error(`no ${kind}`);
  return def;
};
// check is the error alone, on a copy of the object
const check = (kind: string, object: unknown) => decodeGoTypes(structuredClone(object), definition(kind).schema, kind);
// decode reads JSON text as the server does: the value (changed in place) and the error.
const decode = (kind: string, text: string) => {
  const { value, literals } = parseStrictJson(text, { numberLiterals: true });
  const error = decodeGoTypes(value, definition(kind).schema, kind, literals);
  return { value, error };
};

describe('decodeGoTypes', () => {
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
    // IntOrString.UnmarshalJSON decodes a non-string with the standard encoding/json, whose
    // error the outer decoder (sigs.k8s.io/json) gives no struct context
    expect(check('DaemonSet', ds(true))).toBe('json: cannot unmarshal bool into Go value of type int32');
    expect(check('DaemonSet', ds(2 ** 31))).toBe('json: cannot unmarshal number 2147483648 into Go value of type int32');
  });

  it('reads null as encoding/json does: a struct field keeps its zero value, an element becomes one', () => {
    const { value, error } = decode('Pod', '{"metadata":{"name":null,"labels":{"a":null},"annotations":{"b":null},"finalizers":[null],"ownerReferences":[null]},"spec":{"containers":[{"name":"c","image":"i","ports":[null],"resources":{"limits":{"cpu":null}}}],"activeDeadlineSeconds":null}}');
    expect(error).toBeNull();
    expect(value).toEqual({
      metadata: { labels: { a: '' }, annotations: { b: '' }, finalizers: [''], ownerReferences: [{}] },
      spec: { containers: [{ name: 'c', image: 'i', ports: [{}], resources: { limits: { cpu: '0' } } }] },
    });
  });

  it('takes only integer literals that fit the field, as strconv.ParseInt and OverflowInt', () => {
    const job = (parallelism: string) => decode('Job', `{"spec":{"parallelism":${parallelism}}}`).error;
    expect(job('2147483647')).toBeNull();
    expect(job('-2147483648')).toBeNull();
    expect(job('2147483648')).toBe('json: cannot unmarshal number 2147483648 into Go struct field JobSpec.spec.parallelism of type int32');
    expect(job('-2147483649')).toBe('json: cannot unmarshal number -2147483649 into Go struct field JobSpec.spec.parallelism of type int32');
    expect(job('1e2')).toBe('json: cannot unmarshal number 1e2 into Go struct field JobSpec.spec.parallelism of type int32');
    expect(job('15.0')).toBe('json: cannot unmarshal number 15.0 into Go struct field JobSpec.spec.parallelism of type int32');
    const deadline = (n: string) => decode('Job', `{"spec":{"activeDeadlineSeconds":${n}}}`).error;
    expect(deadline('9223372036854775807')).toBeNull();
    expect(deadline('9223372036854775808')).toBe('json: cannot unmarshal number 9223372036854775808 into Go struct field JobSpec.spec.activeDeadlineSeconds of type int64');
    // a number inside a string is no literal
    expect(decode('Job', '{"metadata":{"name":"1.5e3"},"spec":{"parallelism":2}}').error).toBeNull();
  });

  it('answers the error of a UnmarshalJSON method over an earlier wrong type, as it stops decoding', () => {
    const { error } = decode('Lease', '{"metadata":{"name":5},"spec":{"acquireTime":"2020-13-45T99:99:99Z"}}');
    expect(error).toBe('parsing time "2020-13-45T99:99:99Z": month out of range');
  });
});
