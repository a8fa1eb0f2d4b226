// The protobuf codec against the registry schemas: for every served kind, an object with every
// schema field set (to a non-zero value) survives JSON → protobuf → JSON unchanged, so a schema
// field the message tables miss (or type wrongly) fails here: rerun
// tools/protobuf/generate-tables.ts after changing a schema.
import { Schema } from '@plinth/api';
import { decodeProtobufObject, encodeProtobufObject, hasProtobufCodec } from '@plinth/machinery';
import { builtinDefinitions } from '@plinth/registry';

// populate builds a value with every property of a schema set; depth guards recursive schemas.
function populate(schema: Schema, name: string, depth = 0): unknown {
  if (schema.ref === 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime') return '2024-01-02T03:04:05.123456Z';
  if (schema.ref === 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1') return { 'f:metadata': { 'f:labels': {} } };
  if (schema.intOrString) return schema.format === 'quantity' ? '1500m' : depth % 2 === 0 ? 'http' : 8080;
  if (schema.preserveUnknownFields || schema.embeddedResource) return { apiVersion: 'v1', kind: 'Pod', spec: { nested: [1, 'two'] } };
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return '2024-01-02T03:04:05Z';
      if (schema.format === 'byte') return Buffer.from(`bytes of ${name}`).toString('base64');
      return schema.enum?.[0] ?? `${name}-value`;
    case 'integer':
      return schema.format === 'int32' ? -7 : 1234567890123;
    case 'number':
      return 2.5;
    case 'boolean':
      return true;
    case 'array':
      return [populate(schema.items ?? {}, name, depth + 1), populate(schema.items ?? {}, `${name}-2`, depth + 2)];
    case 'object':
    default:
      if (schema.additionalProperties) return { b: populate(schema.additionalProperties, name, depth + 1), a: populate(schema.additionalProperties, `${name}-a`, depth + 1) };
      if (depth > 40) return {};
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([key]) => depth > 0 || (key !== 'apiVersion' && key !== 'kind'))
          .map(([key, child]) => [key, populate(child, key, depth + 1)]),
      );
  }
}

const k8sApiVersion = (group: string, version: string) => (group ? `${group.replace(/\.platform\.io$/, '.k8s.io')}/${version}` : version);

// Built-in kinds served without protobuf (JSON only, as custom resources): their messages are
// not among the descriptors the tables are generated from.
const kindsWithoutProtobuf = new Set(['CustomResourceDefinition']);

describe('protobuf codec of the served kinds', () => {
  const all = builtinDefinitions();
  const defs = all.filter((def) => !kindsWithoutProtobuf.has(def.kind));

  it.each(defs.map((def) => [`${def.group || 'core'}/${def.version} ${def.kind}`, def] as const))('round-trips a fully populated %s', (_name, def) => {
    const apiVersion = k8sApiVersion(def.group, def.version);
    const object = { apiVersion, kind: def.kind, ...(populate(def.schema, def.kind) as Record<string, unknown>) };
    const decoded = decodeProtobufObject(encodeProtobufObject(apiVersion, def.kind, object));
    expect(decoded.object).toEqual(object);
  });

  it.each(defs.filter((def) => !def.virtual).map((def) => [def.listKind, def] as const))('round-trips a %s with list metadata', (_name, def) => {
    const apiVersion = k8sApiVersion(def.group, def.version);
    const item = populate(def.schema, def.kind) as Record<string, unknown>;
    const list = { apiVersion, kind: def.listKind, metadata: { resourceVersion: '42', continue: 'token', remainingItemCount: 0 }, items: [item, item] };
    expect(decodeProtobufObject(encodeProtobufObject(apiVersion, def.listKind, list)).object).toEqual(list);
  });

  it('knows every served kind but the listed ones', () => {
    const missing = all.filter((def) => !hasProtobufCodec(def.group ? `${def.group}/${def.version}` : def.version, def.kind)).map((def) => def.kind);
    // A kind here needs its message tables: rerun tools/protobuf/generate-tables.ts.
    expect(missing.filter((kind) => !kindsWithoutProtobuf.has(kind))).toEqual([]);
  });

  it('knows every kind in both group spellings, and no custom kind', () => {
    for (const def of defs) {
      expect(hasProtobufCodec(def.group ? `${def.group}/${def.version}` : def.version, def.kind)).toBe(true);
      expect(hasProtobufCodec(k8sApiVersion(def.group, def.version), def.kind)).toBe(true);
    }
    expect(hasProtobufCodec('stable.example.com/v1', 'CronTab')).toBe(false);
  });
});
