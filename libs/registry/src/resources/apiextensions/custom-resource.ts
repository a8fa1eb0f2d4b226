// customResourceDefinitions turns an established CustomResourceDefinition into the catalog
// entries that serve its custom resources, one per served version, after
// apiextensions-apiserver pkg/apiserver/customresource_handler.go: the structural schema drives
// pruning (through the registry schema), defaulting, validation and the validation rules;
// additionalPrinterColumns drive Table output.
import { KubeObject, objectMetaSchema, Schema } from '@plinth/api';
import { additionalPropertiesSchema, hasValidationRules, JSONSchemaProps, validateRules } from '@plinth/cel';
import { cloneJson, field, FieldError, FieldErrorType, fieldLabelNotSupported, GoLiteral } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy, ScaleSubresource, TableColumn, TableDefinition } from '../../resource';
import { age, ageColumn, column, humanDuration, nameColumn } from '../../table';
import { stableJson } from '../../store/object-meta';
import { CrdObject, CrdVersion, PrinterColumn } from './crd-types';
import { applyDefaults, validateValue } from './schema-validation';

// toRegistrySchema converts a structural schema into the registry's schema: an object with
// neither properties nor additionalProperties keeps nothing unless it preserves unknown fields.
export function toRegistrySchema(p: JSONSchemaProps): Schema {
  const out: Schema = {};
  if (p['x-kubernetes-int-or-string']) out.intOrString = true;
  else if (p.type && ['object', 'array', 'string', 'integer', 'number', 'boolean'].includes(p.type)) out.type = p.type as Schema['type'];
  if (p.format) out.format = p.format;
  if (typeof p.description === 'string') out.description = p.description;
  if (p.properties) out.properties = Object.fromEntries(Object.entries(p.properties).map(([k, v]) => [k, toRegistrySchema(v)]));
  const valueSchema = additionalPropertiesSchema(p);
  if (valueSchema) out.additionalProperties = toRegistrySchema(valueSchema);
  if (p.items) out.items = toRegistrySchema(p.items);
  if (Array.isArray(p.required)) out.required = p.required as string[];
  if (Array.isArray(p.enum)) out.enum = p.enum as string[];
  if (p.default !== undefined) out.default = p.default;
  if (p['x-kubernetes-preserve-unknown-fields'] || p.additionalProperties === true) out.preserveUnknownFields = true;
  if (p['x-kubernetes-embedded-resource']) out.embeddedResource = true;
  const listType = p['x-kubernetes-list-type'];
  if (listType === 'atomic' || listType === 'set' || listType === 'map') out.listType = listType;
  if (p['x-kubernetes-list-map-keys']) out.listMapKeys = p['x-kubernetes-list-map-keys'];
  const mapType = p['x-kubernetes-map-type'];
  if (mapType === 'atomic' || mapType === 'granular') out.mapType = mapType;
  if (out.type === 'object' && !out.properties && !out.additionalProperties && !out.preserveUnknownFields) out.properties = {};
  return out;
}

// resourceSchema is the kind's schema: apiVersion, kind and metadata always, then the CRD's.
function resourceSchema(schema: JSONSchemaProps): Schema {
  const converted = toRegistrySchema(schema);
  return {
    ...converted,
    type: 'object',
    // The CRD may constrain metadata.name and generateName only; metadata stays ObjectMeta.
    properties: {
      ...(converted.properties ?? {}),
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: objectMetaSchema,
    },
  };
}

// withoutMetadata is the part of an object the CRD schema validates (metadata is the store's).
function withoutMetadata(object: KubeObject): Record<string, unknown> {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = object;
  return rest;
}

// nameFields are the metadata fields a CRD schema may constrain.
function nameFields(object: KubeObject): Record<string, string> {
  const { name, generateName } = object.metadata;
  return { ...(name !== undefined ? { name } : {}), ...(generateName !== undefined ? { generateName } : {}) };
}

function bodySchema(schema: JSONSchemaProps): JSONSchemaProps {
  const properties = { ...(schema.properties ?? {}) };
  delete properties.metadata;
  delete properties.apiVersion;
  delete properties.kind;
  return { ...schema, properties };
}

// blockingErrorTypes are the schema errors after which the validation rules do not run
// (hasBlockingErr): a missing field, a value too long or too many, a value of the wrong type.
const blockingErrorTypes = new Set<FieldErrorType>([FieldErrorType.Required, FieldErrorType.TooLong, FieldErrorType.TooMany, FieldErrorType.TypeInvalid]);

const rulesNotChecked = field.invalid('<nil>', new GoLiteral('"null"'), 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');

// customResourceStrategy validates against the schema first and runs the validation rules
// unless a schema error blocks them, which it then says; on update the transition rules run
// as well.
const maxInt32 = 2 ** 31 - 1;

// replicasErrors is ValidateScaleSpec's and ValidateScaleStatus's check of a replicas path.
function replicasErrors(object: KubeObject, path: string | undefined): FieldError[] {
  if (!path) return [];
  const replicas = printerValue(object, path);
  if (typeof replicas !== 'number') return [];
  if (replicas < 0) return [field.invalid(path, replicas, 'should be a non-negative integer')];
  if (replicas > maxInt32) return [field.invalid(path, replicas, `should be less than or equal to ${maxInt32}`)];
  return [];
}

function customResourceStrategy(schema: JSONSchemaProps, statusSubresource: boolean, scale: ScaleSubresource | undefined): ResourceStrategy {
  const body = bodySchema(schema);
  const hasRules = hasValidationRules(schema);
  const blocked = (errs: FieldError[]) => errs.some((e) => blockingErrorTypes.has(e.type));
  // rulesAfter are the schema errors followed by the rules' (or the note that they did not run)
  const rulesAfter = (errs: FieldError[], rules: () => FieldError[]): FieldError[] => {
    if (!hasRules) return errs;
    return blocked(errs) ? [...errs, rulesNotChecked] : [...errs, ...rules()];
  };
  const metadataSchema = schema.properties?.metadata;
  const schemaErrors = (object: KubeObject): FieldError[] => [
    ...(metadataSchema ? validateValue(metadataSchema, nameFields(object), field.newPath('metadata')) : []),
    ...validateValue(body, withoutMetadata(object), null),
    ...replicasErrors(object, scale?.specReplicasPath),
    ...replicasErrors(object, scale?.statusReplicasPath),
  ];
  const statusSchema = body.properties?.status;
  const statusErrors = (object: KubeObject): FieldError[] => [
    ...(statusSchema && object.status !== undefined ? validateValue(statusSchema, object.status, null) : []),
    ...replicasErrors(object, scale?.statusReplicasPath),
  ];
  return {
    // apiextensions-apiserver converts a custom resource's field labels itself: any but
    // metadata.name and metadata.namespace is `field label not supported`.
    unsupportedFieldLabel: fieldLabelNotSupported,
    defaults: (object) => applyDefaults(body, object),
    // Without a status subresource, any change but metadata bumps generation, status included
    // (the store bumps it for the rest).
    prepareForUpdate: statusSubresource
      ? undefined
      : (object, old) => {
          if (stableJson(object.status) !== stableJson(old.status)) object.metadata.generation = (old.metadata.generation ?? 0) + 1;
        },
    validate: (object) => rulesAfter(schemaErrors(object), () => validateRules(schema, object, undefined)),
    validateUpdate: (object, old) => (hasRules && !blocked(schemaErrors(object)) ? validateRules(schema, object, old, null, true) : []),
    // A status write keeps nothing of the request but its status (and the managedFields it
    // changed), and validates the status alone against its schema, whose errors name fields
    // from the status down.
    prepareForStatusUpdate: (object, old) => {
      const { managedFields, resourceVersion } = object.metadata;
      object.metadata = { ...cloneJson(old.metadata), resourceVersion };
      if (managedFields) object.metadata.managedFields = managedFields;
      else delete object.metadata.managedFields;
    },
    validateStatusUpdate: (object, old) => rulesAfter(statusErrors(object), () => validateRules(schema, object, old)),
  };
}

// printerValue evaluates a printer column's simple JSONPath (`.spec.replicas`, `.a[0].b`).
export function printerValue(object: unknown, jsonPath: string): unknown {
  let current: unknown = object;
  const re = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(jsonPath)) !== null) {
    if (current === null || typeof current !== 'object') return null;
    const key = match[1] ?? match[3];
    current = key !== undefined ? (current as Record<string, unknown>)[key] : (current as unknown[])[Number(match[2])];
    if (current === undefined) return null;
  }
  return current;
}

// printerCell renders a column value as the CRD table convertor does: a date as its age.
function printerCell(value: unknown, type: string, now: number): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'date' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return humanDuration(now - Date.parse(value));
  if (type === 'string' && typeof value === 'object') return JSON.stringify(value);
  return value;
}

// columnDescription is a printer column's own description, or what kube-apiserver's table
// convertor says of its JSONPath.
function columnDescription(c: PrinterColumn): string {
  return c.description ? c.description : `Custom resource definition column (in JSONPath format): ${c.jsonPath}`;
}

function customResourceTable(columns: PrinterColumn[] | undefined): TableDefinition {
  if (!columns || columns.length === 0) return { columns: [nameColumn, ageColumn], row: (o, now) => [o.metadata.name ?? '', age(o, now)] };
  const extra: TableColumn[] = columns.map((c) => column(c.name, c.type as TableColumn['type'], columnDescription(c), c.priority ?? 0, c.format ?? ''));
  return {
    columns: [nameColumn, ...extra],
    row: (o, now) => [o.metadata.name ?? '', ...columns.map((c) => printerCell(printerValue(o, c.jsonPath), c.type, now))],
  };
}

export function customResourceDefinitionsOf(crd: CrdObject): ResourceDefinition[] {
  const { spec } = crd;
  const storageVersion = spec.versions.find((v) => v.storage)?.name;
  const names = crd.status?.acceptedNames?.plural ? { ...spec.names, ...crd.status.acceptedNames } : spec.names;
  return spec.versions.filter((v) => v.served).map((version: CrdVersion) => {
    const schema = version.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const scale = version.subresources?.scale;
    const subresources = [...(version.subresources?.status ? ['status'] : []), ...(scale ? ['scale'] : [])];
    return {
      group: spec.group,
      version: version.name,
      resource: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      namespaced: spec.scope === 'Namespaced',
      shortNames: names.shortNames,
      categories: names.categories,
      verbs: objectVerbs,
      subresources,
      tracksGeneration: true,
      hasStatus: true,
      allowUnconditionalUpdate: false,
      schema: resourceSchema(schema),
      strategy: customResourceStrategy(schema, Boolean(version.subresources?.status), scale),
      table: customResourceTable(version.additionalPrinterColumns),
      nameValidation: 'dns-subdomain',
      stability: 'stable',
      unstructured: true,
      ...(storageVersion && storageVersion !== version.name ? { storageVersion } : {}),
      ...(crd.metadata.deletionTimestamp ? { terminating: true } : {}),
      ...(version.deprecated ? { deprecationWarning: version.deprecationWarning ?? `${spec.group}/${version.name} ${names.kind} is deprecated` } : {}),
      ...(scale ? { scale: { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, labelSelectorPath: scale.labelSelectorPath } } : {}),
    } satisfies ResourceDefinition;
  });
}
