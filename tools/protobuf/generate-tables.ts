// generate-tables.ts writes libs/machinery/src/protobuf/k8s-messages.ts: the protobuf message
// tables of every served built-in kind, from the gogo file descriptors that Kubernetes'
// generated.proto files compile to. kubectl embeds those descriptors (gzipped
// FileDescriptorProto of each k8s.io/api and apimachinery package), so they are read from the
// kubectl binary; field numbers never change between releases, and a field newer than the
// registry schema (Kubernetes 1.28) is left out. Each field carries its gogo facts: repeated,
// pointer (gogoproto.nullable not false) and, from the registry schema, whether its JSON tag
// lacks omitempty (a required property), so that the codec writes and reads what Go would.
//
// Run: node -r ./tools/register.js tools/protobuf/generate-tables.ts [--check] [/usr/bin/kubectl]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, constants } from 'node:zlib';
import { create, fromBinary } from '@bufbuild/protobuf';
import { DescriptorProto, DescriptorProtoSchema, FieldDescriptorProto, FieldDescriptorProtoSchema, FieldDescriptorProto_Label, FieldDescriptorProto_Type, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { Schema } from '@plinth/api';
import { builtinDefinitions } from '@plinth/registry';

const gogoNullable = 65001;
const root = join(__dirname, '..', '..');
export const tablesFile = join(root, 'libs/machinery/src/protobuf/k8s-messages.ts');

export interface GeneratedTables {
  text: string;
  messages: number;
  // missing: schema properties without a protobuf field; newer: fields left out.
  missing: string[];
  newer: string[];
}

// Messages the codec treats by hand: their JSON form is not an object of their fields.
const special = new Set([
  'meta.v1.Time',
  'meta.v1.MicroTime',
  'meta.v1.Duration',
  'meta.v1.FieldsV1',
  'intstr.IntOrString',
  'resource.Quantity',
  'runtime.RawExtension',
  'authentication.v1.ExtraValue',
  'authorization.v1.ExtraValue',
]);

// Kinds served outside builtinDefinitions (subresources and meta kinds), by group/version.
const extraKinds: Record<string, string[]> = {
  v1: ['Binding'],
  'authentication.k8s.io/v1': ['TokenRequest'],
  'meta.k8s.io/v1': ['Status', 'DeleteOptions', 'WatchEvent'],
};

// Non-omitempty scalars of the kinds without a registry schema (Go JSON tags of k8s.io/api).
const keepWithoutSchema = new Set(['authentication.v1.TokenRequestStatus.token', 'meta.v1.WatchEvent.type']);

function readDescriptors(binary: string): Map<string, DescriptorProto> {
  const data = readFileSync(binary);
  const messages = new Map<string, DescriptorProto>();
  const magic = Buffer.from([0x1f, 0x8b, 0x08]);
  for (let at = data.indexOf(magic); at >= 0; at = data.indexOf(magic, at + 1)) {
    let file;
    try {
      const raw = gunzipSync(data.subarray(at, at + 4_000_000), { finishFlush: constants.Z_SYNC_FLUSH });
      file = fromBinary(FileDescriptorProtoSchema, raw);
    } catch {
      continue;
    }
    if (!file.name.startsWith('k8s.io/') || !file.name.endsWith('generated.proto')) continue;
    const add = (prefix: string, message: DescriptorProto) => {
      const name = `${prefix}.${message.name}`;
      messages.set(shortName(`.${name}`), message);
      for (const nested of message.nestedType) add(name, nested);
    };
    for (const message of file.messageType) add(file.package, message);
  }
  return messages;
}

// restore128 puts back the fields of Kubernetes 1.28 that later releases removed:
// PodResourceClaim.source (ClaimSource, dropped in 1.31) and the claims of a volume claim's
// resources (ResourceRequirements until 1.29, VolumeResourceRequirements since).
function restore128(messages: Map<string, DescriptorProto>): void {
  const { OPTIONAL: optional, REPEATED: repeated } = FieldDescriptorProto_Label;
  const field = (name: string, number: number, label: FieldDescriptorProto_Label, type: FieldDescriptorProto_Type, typeName = '') =>
    create(FieldDescriptorProtoSchema, { name, number, label, type, typeName, jsonName: name });
  const { STRING, MESSAGE } = FieldDescriptorProto_Type;
  messages.set(
    'core.v1.ClaimSource',
    create(DescriptorProtoSchema, { name: 'ClaimSource', field: [field('resourceClaimName', 1, optional, STRING), field('resourceClaimTemplateName', 2, optional, STRING)] }),
  );
  const add = (message: string, added: FieldDescriptorProto) => {
    const target = messages.get(message);
    if (target && !target.field.some((f) => f.number === added.number)) target.field.push(added);
  };
  add('core.v1.PodResourceClaim', field('source', 2, optional, MESSAGE, '.k8s.io.api.core.v1.ClaimSource'));
  add('core.v1.VolumeResourceRequirements', field('claims', 3, repeated, MESSAGE, '.k8s.io.api.core.v1.ResourceClaim'));
}

function shortName(typeName: string): string {
  return typeName
    .replace(/^\.k8s\.io\.api\./, '')
    .replace(/^\.k8s\.io\.apimachinery\.pkg\.apis\./, '')
    .replace(/^\.k8s\.io\.apimachinery\.pkg\.(util\.|api\.)?/, '');
}

const scalarNames: Partial<Record<FieldDescriptorProto_Type, string>> = {
  [FieldDescriptorProto_Type.STRING]: 'string',
  [FieldDescriptorProto_Type.BYTES]: 'bytes',
  [FieldDescriptorProto_Type.BOOL]: 'bool',
  [FieldDescriptorProto_Type.INT32]: 'int32',
  [FieldDescriptorProto_Type.INT64]: 'int64',
  [FieldDescriptorProto_Type.UINT32]: 'uint32',
  [FieldDescriptorProto_Type.UINT64]: 'uint64',
  [FieldDescriptorProto_Type.DOUBLE]: 'double',
};

function isPointer(field: FieldDescriptorProto): boolean {
  const unknown = field.options?.$unknown ?? [];
  return !unknown.some((u) => u.no === gogoNullable && u.data.length === 1 && u.data[0] === 0);
}

// packageOf maps a served group (platform or k8s spelling) to its proto package.
function packageOf(group: string, version: string): string {
  if (group === '') return `core.${version}`;
  const base = group.replace(/\.(platform|k8s)\.io$/, '');
  const name = base === 'rbac.authorization' ? 'rbac' : base;
  return `${name}.${version}`;
}

function k8sGroupVersion(group: string, version: string): string {
  if (group === '') return version;
  return `${group.replace(/\.platform\.io$/, '.k8s.io')}/${version}`;
}

interface Emitted {
  fields: Map<string, { number: number; type: string; flags: Set<string> }>;
  // schemaBound: the message was reached with a registry schema; fields outside it are newer.
  schemaBound: boolean;
}

// isEmbedded: a non-pointer, non-repeated message field the schema does not name, whose own
// fields the schema has (an embedded Go struct).
function isEmbedded(field: FieldDescriptorProto, message: DescriptorProto | undefined, schema: Schema): boolean {
  if (!message || field.label === FieldDescriptorProto_Label.REPEATED || isPointer(field) || message.options?.mapEntry) return false;
  return message.field.some((f) => schema.properties?.[f.name] !== undefined);
}

// generateTables builds the text of k8s-messages.ts from a kubectl binary's descriptors.
export function generateTables(kubectlBinary: string): GeneratedTables {
  const messages = readDescriptors(kubectlBinary);
  restore128(messages);
  const emitted = new Map<string, Emitted>();
  const newer = new Set<string>();
  const missing = new Set<string>();

  const typeOf = (field: FieldDescriptorProto): { type: string; map: boolean; valueMessage?: string } => {
    if (field.type !== FieldDescriptorProto_Type.MESSAGE) {
      const scalar = scalarNames[field.type];
      if (!scalar) throw new Error(`unsupported field type ${field.type} of ${field.name}`);
      return { type: scalar, map: false };
    }
    const name = shortName(field.typeName);
    const message = messages.get(name);
    if (!message) throw new Error(`message ${name} not found`);
    if (message.options?.mapEntry) {
      const value = message.field.find((f) => f.number === 2);
      if (!value) throw new Error(`map entry ${name} has no value`);
      const valueType = typeOf(value);
      return { type: `map<${valueType.type}>`, map: true, valueMessage: value.type === FieldDescriptorProto_Type.MESSAGE ? valueType.type : undefined };
    }
    return { type: name, map: false, valueMessage: name };
  };

  const visit = (name: string, schema: Schema | undefined, embedded = false): void => {
    if (special.has(name)) return;
    const message = messages.get(name);
    if (!message) throw new Error(`message ${name} not found`);
    let entry = emitted.get(name);
    const first = !entry;
    if (!entry) {
      entry = { fields: new Map(), schemaBound: schema?.properties !== undefined };
      emitted.set(name, entry);
    }
    for (const field of message.field) {
      let property = schema?.properties?.[field.name];
      const { type, valueMessage } = typeOf(field);
      // An embedded Go struct (json:",inline") is a field of its own in protobuf whose fields
      // sit in the parent's JSON object.
      const inline = schema?.properties && !property && isEmbedded(field, messages.get(valueMessage ?? ''), schema);
      if (inline) property = schema;
      else if (schema?.properties && !property) {
        newer.add(`${name}.${field.name}`);
        continue;
      }
      let spec = entry.fields.get(field.name);
      if (!spec) {
        const flags = new Set<string>();
        if (inline) flags.add('inline');
        else if (field.label === FieldDescriptorProto_Label.REPEATED && !type.startsWith('map<')) flags.add('repeated');
        else if (!type.startsWith('map<') && isPointer(field)) flags.add('pointer');
        spec = { number: field.number, type, flags };
        entry.fields.set(field.name, spec);
      }
      if (schema?.required?.includes(field.name) || keepWithoutSchema.has(`${name}.${field.name}`)) spec.flags.add('keep');
      if (valueMessage && (first || property)) {
        const nested = inline ? schema : (property?.items ?? property?.additionalProperties ?? property);
        if (!emitted.has(valueMessage) || nested?.properties) visit(valueMessage, nested, Boolean(inline));
      }
    }
    if (schema?.properties && !embedded) {
      const covered = new Set<string>();
      for (const field of message.field) {
        covered.add(field.name);
        const inner = field.type === FieldDescriptorProto_Type.MESSAGE ? messages.get(shortName(field.typeName)) : undefined;
        if (!schema.properties[field.name] && isEmbedded(field, inner, schema)) for (const f of inner?.field ?? []) covered.add(f.name);
      }
      for (const property of Object.keys(schema.properties)) if (!covered.has(property) && !['apiVersion', 'kind'].includes(property)) missing.add(`${name}.${property}`);
    }
  };

  const kinds: Record<string, Record<string, string>> = {};
  const addKind = (groupVersion: string, pkg: string, kind: string, schema?: Schema) => {
    const name = `${pkg}.${kind}`;
    if (!messages.has(name)) return;
    (kinds[groupVersion] ??= {})[kind] = name;
    visit(name, schema);
  };
  for (const def of builtinDefinitions()) {
    const gv = k8sGroupVersion(def.group, def.version);
    const pkg = packageOf(def.group, def.version);
    addKind(gv, pkg, def.kind, def.schema);
    addKind(gv, pkg, def.listKind);
  }
  for (const [gv, list] of Object.entries(extraKinds)) {
    const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
    for (const kind of list) addKind(gv, group === 'meta.k8s.io' ? `meta.${version}` : packageOf(group, version), kind);
  }
  visit('runtime.Unknown', undefined);

  const lines: string[] = [];
  lines.push('// Generated by tools/protobuf/generate-tables.ts from the file descriptors of Kubernetes\'');
  lines.push('// generated.proto files; do not edit. Each field: [JSON name, field number, type, flags], where');
  lines.push('// type is a scalar, a message of this table (or one the codec knows by hand) or map<value>;');
  lines.push('// flags: repeated, pointer (written only when set), keep (no omitempty: a zero value is kept).');
  lines.push("import { ProtoMessages } from './codec-types';");
  lines.push('');
  lines.push('export const k8sMessages: ProtoMessages = {');
  for (const [name, entry] of [...emitted.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    lines.push(`  '${name}': [`);
    for (const [fieldName, spec] of [...entry.fields.entries()].sort((a, b) => a[1].number - b[1].number)) {
      const flags = [...spec.flags].sort().join(',');
      lines.push(`    ['${fieldName}', ${spec.number}, '${spec.type}'${flags ? `, '${flags}'` : ''}],`);
    }
    lines.push('  ],');
  }
  lines.push('};');
  lines.push('');
  lines.push('// k8sKinds names the message of each served kind, by Kubernetes group/version.');
  lines.push('export const k8sKinds: Record<string, Record<string, string>> = {');
  for (const gv of Object.keys(kinds).sort()) {
    lines.push(`  '${gv}': {`);
    for (const kind of Object.keys(kinds[gv]).sort()) lines.push(`    ${kind}: '${kinds[gv][kind]}',`);
    lines.push('  },');
  }
  lines.push('};');
  return { text: `${lines.join('\n')}\n`, messages: emitted.size, missing: [...missing].sort(), newer: [...newer].sort() };
}

// With --check, nothing is written: the exit code says whether the committed tables are current.
if (require.main === module) {
  const check = process.argv.includes('--check');
  const binary = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? '/usr/bin/kubectl';
  const tables = generateTables(binary);
  if (check) {
    const current = readFileSync(tablesFile, 'utf8') === tables.text;
    console.log(current ? 'tables are up to date' : `tables are stale: regenerate ${tablesFile}`);
    if (tables.missing.length) console.log(`schema properties without a protobuf field:\n  ${tables.missing.join('\n  ')}`);
    process.exit(current && tables.missing.length === 0 ? 0 : 1);
  }
  writeFileSync(tablesFile, tables.text);
  if (tables.missing.length) console.log(`schema properties without a protobuf field:\n  ${tables.missing.join('\n  ')}`);
  console.log(`wrote ${tables.messages} messages; fields newer than the schemas, left out:\n  ${tables.newer.join('\n  ')}`);
}
