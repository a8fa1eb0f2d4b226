import type { Schema } from '@plinth/api';
import { prune, unknownFields } from './unknown-fields';

const str: Schema = { type: 'string' };
const stringMap: Schema = { type: 'object', additionalProperties: str };
const obj = (properties: Record<string, Schema>, extra: Partial<Schema> = {}): Schema => ({ type: 'object', properties, ...extra });

const objectMeta = obj({
  name: str,
  namespace: str,
  labels: stringMap,
  annotations: stringMap,
  managedFields: { type: 'array', items: obj({ manager: str, fieldsV1: { type: 'object', preserveUnknownFields: true } }) },
});

const container = obj({
  name: str,
  image: str,
  imagePullPolicy: str,
  ports: { type: 'array', items: obj({ containerPort: { type: 'integer' }, protocol: str }) },
  resources: obj({ limits: { type: 'object', additionalProperties: { intOrString: true } } }),
});

const podTemplate = obj({ metadata: objectMeta, spec: obj({ containers: { type: 'array', items: container } }) });

const deployment = obj({
  apiVersion: str,
  kind: str,
  metadata: objectMeta,
  spec: obj({
    replicas: { type: 'integer' },
    paused: { type: 'boolean' },
    selector: obj({ matchLabels: stringMap }),
    template: podTemplate,
    strategy: obj({ rollingUpdate: obj({ maxSurge: { intOrString: true } }) }),
  }),
  status: obj({ replicas: { type: 'integer' } }),
});

describe('unknownFields', () => {
  it('finds unknown fields at the top, in metadata and nested in lists, in key order', () => {
    const object = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'n', labels: { app: 'nginx' }, unknownMeta: 'v' },
      spec: {
        unknown1: 'val1',
        paused: true,
        selector: { matchLabels: { app: 'nginx' } },
        template: {
          metadata: { labels: { app: 'nginx' } },
          spec: { containers: [{ name: 'a' }, { name: 'nginx', unknownNested: 'val1', imagePullPolicy: 'Never' }] },
        },
      },
      topLevel: 1,
    };
    expect(unknownFields(object, deployment)).toEqual([
      'metadata.unknownMeta',
      'spec.unknown1',
      'spec.template.spec.containers[1].unknownNested',
      'topLevel',
    ]);
  });

  it('never reports map keys, but checks map values', () => {
    const schema = obj({ byName: { type: 'object', additionalProperties: obj({ x: str }) } });
    expect(unknownFields({ byName: { anything: { x: '1', y: '2' }, other: {} } }, schema)).toEqual(['byName.anything.y']);
    expect(unknownFields({ metadata: { labels: { 'any/key': 'v' }, annotations: { k: 'v' } } }, deployment)).toEqual([]);
  });

  it('does not look below an unknown field', () => {
    expect(unknownFields({ spec: { foo: { bar: { baz: 1 } } } }, deployment)).toEqual(['spec.foo']);
  });

  it('leaves preserve-unknown subtrees alone but still checks their known properties', () => {
    expect(unknownFields({ metadata: { managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': { '.': {} } } }] } }, deployment)).toEqual([]);
    const schema = obj({ spec: obj({ known: obj({ a: str }) }, { preserveUnknownFields: true }) });
    expect(unknownFields({ spec: { free: { x: 1 }, known: { a: 'a', b: 'b' } } }, schema)).toEqual(['spec.known.b']);
  });

  it('treats an object schema without properties as opaque (RawExtension, FieldsV1)', () => {
    const schema = obj({ raw: { type: 'object' } });
    expect(unknownFields({ raw: { anything: { at: 'all' } } }, schema)).toEqual([]);
    expect(unknownFields({ empty: {} }, obj({ empty: obj({}) }))).toEqual([]);
    expect(unknownFields({ empty: { x: 1 } }, obj({ empty: obj({}) }))).toEqual(['empty.x']);
  });

  it('accepts int-or-string values of either JSON type', () => {
    const object = { spec: { strategy: { rollingUpdate: { maxSurge: '25%' } }, template: { spec: { containers: [{ resources: { limits: { cpu: 1, memory: '1Gi' } } }] } } } };
    expect(unknownFields(object, deployment)).toEqual([]);
  });

  it('allows apiVersion, kind and metadata in an embedded resource, and checks metadata when described', () => {
    const embedded = obj({ spec: obj({ obj: obj({ data: stringMap }, { embeddedResource: true }) }) });
    const object = { spec: { obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', anything: 1 }, data: {}, extra: 1 } } };
    expect(unknownFields(object, embedded)).toEqual(['spec.obj.extra']);
    const withMeta = obj({ spec: obj({ obj: obj({ metadata: objectMeta }, { embeddedResource: true }) }) });
    expect(unknownFields(object, withMeta)).toEqual(['spec.obj.metadata.anything', 'spec.obj.data', 'spec.obj.extra']);
  });

  it('ignores values whose JSON type does not match the schema', () => {
    expect(unknownFields({ spec: 'not an object', metadata: [1, 2] }, deployment)).toEqual([]);
    expect(unknownFields({ spec: { template: { spec: { containers: { notA: 'list' } } } } }, deployment)).toEqual([]);
  });

  it('does not mistake inherited names for properties', () => {
    expect(unknownFields({ toString: 1, constructor: {}, __proto__x: 1 }, obj({}))).toEqual(['toString', 'constructor', '__proto__x']);
  });

  it('indexes a top-level list', () => {
    expect(unknownFields([{ a: 1 }, { b: 1 }], { type: 'array', items: obj({ a: str }) })).toEqual(['[1].b']);
  });
});

describe('prune', () => {
  it('removes unknown fields in place and returns their paths', () => {
    const object = {
      apiVersion: 'apps/v1',
      metadata: { name: 'n', unknownMeta: 'v', labels: { keep: 'me' } },
      spec: { unknown1: 'x', paused: false, template: { spec: { containers: [{ name: 'c', bogus: true }] } } },
    };
    expect(prune(object, deployment)).toEqual(['metadata.unknownMeta', 'spec.unknown1', 'spec.template.spec.containers[0].bogus']);
    expect(object).toEqual({
      apiVersion: 'apps/v1',
      metadata: { name: 'n', labels: { keep: 'me' } },
      spec: { paused: false, template: { spec: { containers: [{ name: 'c' }] } } },
    });
  });

  it('removes an own __proto__ key without touching the prototype', () => {
    const object = JSON.parse('{"name": "n", "__proto__": {"polluted": true}}');
    expect(prune(object, obj({ name: str }))).toEqual(['__proto__']);
    expect(Object.keys(object)).toEqual(['name']);
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
  });
});
