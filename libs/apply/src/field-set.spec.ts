import { s } from '@plinth/api';
import { FieldSet, fromObject } from './field-set';
import { deserializePathElement, fieldElement, indexElement, keyElement, pathString, serializePathElement, valueElement } from './path-element';
import { jobSchema, podSchema } from './testdata/schemas';

const f = fieldElement;

describe('path elements', () => {
  it('serialize as FieldsV1 keys and back', () => {
    const cases = [
      [f('spec'), 'f:spec'],
      [keyElement([{ name: 'name', value: 'c' }]), 'k:{"name":"c"}'],
      [keyElement([{ name: 'protocol', value: 'TCP' }, { name: 'containerPort', value: 80 }]), 'k:{"containerPort":80,"protocol":"TCP"}'],
      [valueElement('example.com/x'), 'v:"example.com/x"'],
      [valueElement('<b>'), 'v:"\\u003cb\\u003e"'],
      [indexElement(3), 'i:3'],
    ] as const;
    for (const [pe, text] of cases) {
      expect(serializePathElement(pe)).toBe(text);
      expect(serializePathElement(deserializePathElement(text))).toBe(text);
    }
  });

  it('rejects malformed keys', () => {
    expect(() => deserializePathElement('f')).toThrow('key must be 2 characters long:');
    expect(() => deserializePathElement('fx')).toThrow('missing colon: fx');
    expect(() => deserializePathElement('i:x')).toThrow('invalid syntax');
  });

  it('prints paths as conflicts name them', () => {
    const path = [f('spec'), f('template'), f('spec'), f('containers'), keyElement([{ name: 'name', value: 'c' }]), f('image')];
    expect(pathString(path)).toBe('.spec.template.spec.containers[name="c"].image');
    expect(pathString([f('spec'), f('ports'), keyElement([{ name: 'port', value: 80 }, { name: 'protocol', value: 'TCP' }])])).toBe('.spec.ports[port=80,protocol="TCP"]');
    expect(pathString([f('metadata'), f('finalizers'), valueElement('x')])).toBe('.metadata.finalizers[="x"]');
  });
});

describe('FieldSet', () => {
  const a = FieldSet.of([f('spec'), f('replicas')], [f('spec'), f('paused')], [f('metadata'), f('labels'), f('app')]);
  const b = FieldSet.of([f('spec'), f('replicas')], [f('spec')], [f('status'), f('ready')]);

  it('unions, intersects and subtracts', () => {
    expect(a.union(b).toString()).toBe('{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{".":{},"f:paused":{},"f:replicas":{}},"f:status":{"f:ready":{}}}');
    expect(a.intersection(b).toString()).toBe('{"f:spec":{"f:replicas":{}}}');
    expect(a.difference(b).toString()).toBe('{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:paused":{}}}');
    // A member removes everything below it only in a recursive difference.
    expect(a.recursiveDifference(b).toString()).toBe('{"f:metadata":{"f:labels":{"f:app":{}}}}');
    expect(a.difference(a).isEmpty()).toBe(true);
  });

  it('iterates members before children, in path element order', () => {
    const set = FieldSet.of([f('b')], [f('a'), f('x')], [f('a')], [f('c'), keyElement([{ name: 'name', value: 'z' }])], [f('c'), f('d')]);
    expect(set.paths().map(pathString)).toEqual(['.a', '.b', '.a.x', '.c.d', '.c[name="z"]']);
  });

  it('round-trips FieldsV1, with "." first for members that have children', () => {
    const text =
      '{"f:metadata":{"f:finalizers":{".":{},"v:\\"a\\"":{}},"f:labels":{".":{},"f:app":{}}},' +
      '"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}},"f:x":{"i:0":{}}}}';
    const set = FieldSet.fromFieldsV1(JSON.parse(text));
    expect(set.toString()).toBe(text);
    expect(set.has([f('spec'), f('containers'), keyElement([{ name: 'name', value: 'c' }])])).toBe(true);
    expect(set.has([f('spec'), f('containers')])).toBe(false);
  });

  it('sorts keys out of order and skips unknown path element types', () => {
    const set = FieldSet.fromFieldsV1({ 'f:b': {}, 'x:future': {}, 'f:a': { 'f:z': {}, '.': {}, 'f:y': {} } });
    expect(set.toString()).toBe('{"f:a":{".":{},"f:y":{},"f:z":{}},"f:b":{}}');
  });

  it('reports path elements it cannot parse', () => {
    expect(() => FieldSet.fromFieldsV1({ 'k:notjson': {} })).toThrow('parsing key as path element');
  });
});

describe('fromObject', () => {
  it('lists the leaves a Job sets, with list-map items, sets, atomic lists and granular maps', () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi', labels: { app: 'pi' }, finalizers: ['example.com/keep'] },
      spec: {
        backoffLimit: 4,
        selector: { matchLabels: { app: 'pi' } },
        template: {
          spec: {
            containers: [
              { name: 'pi', image: 'perl', command: ['perl', '-e'], ports: [{ containerPort: 80 }], resources: {} },
            ],
            nodeSelector: { disk: 'ssd' },
            restartPolicy: 'Never',
          },
        },
      },
    };
    expect(fromObject(job, jobSchema).toString()).toBe(
      '{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:finalizers":{"v:\\"example.com/keep\\"":{}},"f:labels":{"f:app":{}},"f:name":{}},' +
        '"f:spec":{"f:backoffLimit":{},"f:selector":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"pi\\"}":{".":{},"f:command":{},"f:image":{},"f:name":{},' +
        '"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}},"f:nodeSelector":{},"f:restartPolicy":{}}}}}',
    );
  });

  it('owns each key of a granular map of structs, and deduces fields without schema', () => {
    const schema = s.object({ byName: s.map(s.object({ x: s.string() })), free: { type: 'object', properties: {}, preserveUnknownFields: true, additionalProperties: undefined } });
    const set = fromObject({ byName: { a: { x: '1' } }, free: { k: { nested: 1 } } }, schema);
    expect(set.toString()).toBe('{"f:byName":{"f:a":{".":{},"f:x":{}}},"f:free":{"f:k":{".":{},"f:nested":{}}}}');
  });

  it('treats a bare preserve-unknown-fields object as one atomic leaf, and empty structs as nothing', () => {
    const schema = s.object({ raw: s.any(), empty: s.object({ x: s.string() }) });
    expect(fromObject({ raw: { a: { b: 1 } }, empty: {} }, schema).toString()).toBe('{"f:raw":{}}');
    expect(fromObject({ spec: { overhead: {} }, status: { phase: 'Running' } }, podSchema).toString()).toBe('{"f:status":{"f:phase":{}}}');
  });
});

describe('FieldSet membership', () => {
  const set = FieldSet.of([f('metadata')], [f('metadata'), f('name')], [f('status')]);

  it('has only its member paths', () => {
    expect(set.has([f('metadata')])).toBe(true);
    expect(set.has([f('metadata'), f('name')])).toBe(true);
    expect(set.has([f('metadata'), f('labels')])).toBe(false);
    expect(set.has([f('spec')])).toBe(false);
    expect(set.has([])).toBe(false);
  });

  it('has a member along a path when the path or a prefix of it is one, as recursiveDifference removes', () => {
    for (const path of [[f('status')], [f('status'), f('phase')], [f('metadata'), f('labels'), f('a')]]) {
      expect(set.hasMemberAlong(path)).toBe(FieldSet.of(path).recursiveDifference(set).isEmpty());
    }
    expect(set.hasMemberAlong([f('status'), f('phase')])).toBe(true);
    expect(set.hasMemberAlong([f('spec'), f('replicas')])).toBe(false);
    expect(set.hasMemberAlong([])).toBe(false);
  });
});
