// Validation of CustomResourceDefinitions, after apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go (v1 rules: schemas required and structural).
import { findPreexistingExpressions, JSONSchemaProps, noPreexistingExpressions, PreexistingExpressions, validateRuleDefinitions } from '@plinth/cel';
import { field, FieldError, FieldPath, isDNS1035Label, isDNS1123Subdomain } from '@plinth/machinery';
import { crdVersionsLiteral, SharedParts, sharedParts, storedVersionsLiteral } from './crd-go-literals';
import { CrdObject, CrdNames, CrdVersion, PrinterColumn } from './crd-types';
import { validateDefault } from './schema-validation';

const specPath = field.newPath('spec');

// validateCrd is ValidateCustomResourceDefinition; on an update old is the stored CRD, whose
// rules and message expressions compile in the full CEL environment (the others in the one
// compatible with the previous release).
export function validateCrd(crd: CrdObject, old?: CrdObject): FieldError[] {
  const preexisting = old ? findPreexistingExpressions((old.spec?.versions ?? []).map((v) => v?.schema?.openAPIV3Schema)) : noPreexistingExpressions;
  const errs: FieldError[] = [];
  const spec = crd.spec ?? ({} as CrdObject['spec']);
  const names = spec.names ?? ({} as CrdNames);
  if (crd.metadata.name && crd.metadata.name !== `${names.plural}.${spec.group}`) {
    errs.push(field.invalid(field.newPath('metadata', 'name'), crd.metadata.name, 'must be spec.names.plural+"."+spec.group'));
  }
  errs.push(...validateSpec(spec, preexisting));
  errs.push(...validateNames(crd.status?.acceptedNames ?? ({} as CrdNames), field.newPath('status', 'acceptedNames')));
  errs.push(...validateStoredVersions(crd.status?.storedVersions, spec.versions ?? []));
  return errs;
}

// validateStoredVersions is ValidateCustomResourceDefinitionStoredVersions: at least one, the
// storage version among them, and each a version of the spec.
function validateStoredVersions(storedVersions: string[] | undefined, versions: CrdVersion[]): FieldError[] {
  const path = field.newPath('status', 'storedVersions');
  if (!storedVersions || storedVersions.length === 0) return [field.invalid(path, storedVersionsLiteral(storedVersions), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  for (const version of versions) {
    if (version.storage && !storedVersions.includes(version.name)) errs.push(field.invalid(path, storedVersionsLiteral(storedVersions), `must have the storage version ${version.name}`));
  }
  storedVersions.forEach((v, i) => {
    if (!versions.some((version) => version.name === v)) errs.push(field.invalid(path.index(i), v, 'must appear in spec.versions'));
  });
  return errs;
}

// validateCrdUpdate adds the immutable fields: group and plural always, scope and kind once
// established.
export function validateCrdUpdate(crd: CrdObject, old: CrdObject): FieldError[] {
  const errs: FieldError[] = [];
  const established = (old.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  if (established) {
    if (crd.spec.scope !== old.spec.scope) errs.push(field.invalid(specPath.child('scope'), crd.spec.scope, 'field is immutable'));
    if (crd.spec.names?.kind !== old.spec.names?.kind) errs.push(field.invalid(specPath.child('names', 'kind'), crd.spec.names?.kind, 'field is immutable'));
  }
  if (crd.spec.group !== old.spec.group) errs.push(field.invalid(specPath.child('group'), crd.spec.group, 'field is immutable'));
  if (crd.spec.names?.plural !== old.spec.names?.plural) errs.push(field.invalid(specPath.child('names', 'plural'), crd.spec.names?.plural, 'field is immutable'));
  return errs;
}

function validateSpec(spec: CrdObject['spec'], preexisting: PreexistingExpressions): FieldError[] {
  const errs: FieldError[] = [];
  const group = spec.group ?? '';
  if (!group) errs.push(field.required(specPath.child('group'), ''));
  else if (isDNS1123Subdomain(group).length > 0) errs.push(field.invalid(specPath.child('group'), group, isDNS1123Subdomain(group).join(',')));
  else if (group.split('.').length < 2) errs.push(field.invalid(specPath.child('group'), group, 'should be a domain with at least one dot'));

  if (!spec.scope) errs.push(field.required(specPath.child('scope'), ''));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(field.notSupported(specPath.child('scope'), spec.scope, ['Cluster', 'Namespaced']));

  const versions = spec.versions ?? [];
  const shared = sharedParts(versions);
  versions.forEach((version, i) => {
    if (!version.schema?.openAPIV3Schema) errs.push(field.required(specPath.child('versions').index(i).child('schema', 'openAPIV3Schema'), 'schemas are required'));
  });
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((version, i) => {
    if (seen.has(version.name)) unique = false;
    seen.add(version.name);
    const errors = isDNS1035Label(version.name ?? '');
    if (errors.length) errs.push(field.invalid(specPath.child('versions').index(i).child('name'), version.name ?? '', errors.join(',')));
    errs.push(...validateVersion(version, specPath.child('versions').index(i), preexisting, shared));
  });
  if (!unique) errs.push(field.invalid(specPath.child('versions'), crdVersionsLiteral(versions), 'must contain unique version names'));
  if (versions.filter((v) => v.storage).length !== 1) errs.push(field.invalid(specPath.child('versions'), crdVersionsLiteral(versions), 'must have exactly one version marked as storage version'));

  const names = spec.names ?? ({} as CrdNames);
  if (!names.plural) errs.push(field.required(specPath.child('names', 'plural'), ''));
  if (!names.singular) errs.push(field.required(specPath.child('names', 'singular'), ''));
  if (!names.kind) errs.push(field.required(specPath.child('names', 'kind'), ''));
  if (!names.listKind) errs.push(field.required(specPath.child('names', 'listKind'), ''));
  errs.push(...validateNames(names, specPath.child('names')));
  const first = versions[0];
  if (first && shared.schema) errs.push(...validateSchema(first.schema?.openAPIV3Schema, specPath.child('validation', 'openAPIV3Schema'), preexisting));
  if (first && shared.subresources) errs.push(...validateScale(first.subresources?.scale, specPath.child('subresources', 'scale')));
  if (first && shared.columns) errs.push(...validateColumns(first.additionalPrinterColumns, specPath.child('additionalPrinterColumns')));
  if (spec.preserveUnknownFields === true) {
    errs.push(field.invalid(specPath.child('preserveUnknownFields'), true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  errs.push(...validateConversion(spec.conversion));
  return errs;
}

// validateConversion is ValidateCustomResourceConversion over the v1 shape (paths are the
// internal type's, as Kubernetes reports them).
function validateConversion(conversion: CrdObject['spec']['conversion']): FieldError[] {
  if (!conversion) return [];
  const path = specPath.child('conversion');
  const strategy = conversion.strategy ?? '';
  if (!strategy) return [field.required(path.child('strategy'), '')];
  if (strategy !== 'None' && strategy !== 'Webhook') return [field.notSupported(path.child('strategy'), strategy, ['None', 'Webhook'])];
  const webhook = conversion.webhook;
  if (strategy === 'None') return webhook ? [field.forbidden(path.child('webhookClientConfig'), 'should not be set when strategy is not set to Webhook')] : [];
  const errs: FieldError[] = [];
  const clientConfig = webhook?.clientConfig;
  if (!clientConfig) errs.push(field.required(path.child('webhookClientConfig'), 'required when strategy is set to Webhook'));
  else if ((clientConfig.url === undefined) === (clientConfig.service === undefined)) errs.push(field.required(path.child('webhookClientConfig'), 'exactly one of url or service is required'));
  const reviewVersions = webhook?.conversionReviewVersions ?? [];
  if (!reviewVersions.some((v) => v === 'v1' || v === 'v1beta1')) {
    errs.push(field.invalid(path.child('conversionReviewVersions'), reviewVersions, 'must include at least one of v1, v1beta1'));
  }
  return errs;
}

// deprecationWarningErrors is validateDeprecationWarning: only for a deprecated version, at
// most 256 bytes of printable UTF-8 (Go's unicode.IsPrint: letters, marks, numbers,
// punctuation, symbols and the ASCII space).
function deprecationWarningErrors(deprecated: boolean | undefined, warning: string | undefined): string[] {
  if (warning === undefined || warning === null) return [];
  if (deprecated !== true) return ['can only be set for deprecated versions'];
  const errors: string[] = [];
  if (Buffer.byteLength(warning, 'utf8') > 256) errors.push('must be <= 256 characters long');
  if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u.test(warning)) errors.push('must only contain printable UTF-8 characters');
  return errors;
}

function validateVersion(version: CrdVersion, path: FieldPath, preexisting: PreexistingExpressions, shared: SharedParts): FieldError[] {
  const errs: FieldError[] = deprecationWarningErrors(version.deprecated, version.deprecationWarning).map((msg) => field.invalid(path.child('deprecationWarning'), version.deprecationWarning, msg));
  if (!shared.schema) errs.push(...validateSchema(version.schema?.openAPIV3Schema, path.child('schema', 'openAPIV3Schema'), preexisting));
  if (!shared.subresources) errs.push(...validateScale(version.subresources?.scale, path.child('subresources', 'scale')));
  if (!shared.columns) errs.push(...validateColumns(version.additionalPrinterColumns, path.child('additionalPrinterColumns')));
  return errs;
}

// validateSchema checks a schema is structural, then its CEL rules.
function validateSchema(schema: JSONSchemaProps | undefined, schemaPath: FieldPath, preexisting: PreexistingExpressions): FieldError[] {
  if (!schema) return [];
  const errs = validateStructural(schema, schemaPath, true);
  return errs.length > 0 ? errs : validateRuleDefinitions(schema, schemaPath, preexisting);
}

function validateColumns(columns: PrinterColumn[] | undefined, path: FieldPath): FieldError[] {
  return (columns ?? []).flatMap((col, i) => validateColumn(col, path.index(i)));
}

function validateScale(scale: NonNullable<CrdVersion['subresources']>['scale'], scalePath: FieldPath): FieldError[] {
  if (!scale) return [];
  return [
    ...validateScalePath(scale.specReplicasPath, scalePath.child('specReplicasPath'), '.spec.', true),
    ...validateScalePath(scale.statusReplicasPath, scalePath.child('statusReplicasPath'), '.status.', true),
    ...(scale.labelSelectorPath ? validateScalePath(scale.labelSelectorPath, scalePath.child('labelSelectorPath'), '.status.', false) : []),
  ];
}

const printerColumnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const printerColumnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

// validateColumn is ValidateCustomResourceColumnDefinition.
function validateColumn(col: PrinterColumn, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(field.required(path.child('name'), ''));
  if (!col.type) errs.push(field.required(path.child('type'), `must be one of ${printerColumnTypes.join(',')}`));
  else if (!printerColumnTypes.includes(col.type)) errs.push(field.invalid(path.child('type'), col.type, `must be one of ${printerColumnTypes.join(',')}`));
  if (col.format && !printerColumnFormats.includes(col.format)) errs.push(field.invalid(path.child('format'), col.format, `must be one of ${printerColumnFormats.join(',')}`));
  if (!col.jsonPath) errs.push(field.required(path.child('JSONPath'), ''));
  else errs.push(...validateSimpleJsonPath(col.jsonPath, path.child('JSONPath')));
  return errs;
}

function validateSimpleJsonPath(value: string, path: FieldPath): FieldError[] {
  if (value.length === 0) return [field.invalid(path, value, 'must not be empty')];
  if (!value.startsWith('.')) return [field.invalid(path, value, 'must be a simple json path starting with .')];
  return [];
}

// validateScalePath checks a scale subresource path: a simple JSON path under .spec or .status.
function validateScalePath(value: string | undefined, path: FieldPath, prefix: string, required: boolean): FieldError[] {
  if (!value) return required ? [field.required(path, '')] : [];
  const errs = validateSimpleJsonPath(value, path);
  if (errs.length > 0) return errs;
  if (!value.startsWith(prefix)) return [field.invalid(path, value, `should be a json path under ${prefix.slice(0, -1)}`)];
  return [];
}

// validateNames is ValidateCustomResourceDefinitionNames.
function validateNames(names: CrdNames, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const label = (value: string | undefined) => (value ? isDNS1035Label(value) : []);
  if (label(names.plural).length) errs.push(field.invalid(path.child('plural'), names.plural, label(names.plural).join(',')));
  if (label(names.singular).length) errs.push(field.invalid(path.child('singular'), names.singular, label(names.singular).join(',')));
  const kindErrs = label(names.kind?.toLowerCase());
  if (kindErrs.length) errs.push(field.invalid(path.child('kind'), names.kind, `may have mixed case, but should otherwise match: ${kindErrs.join(',')}`));
  const listKindErrs = label(names.listKind?.toLowerCase());
  if (listKindErrs.length) errs.push(field.invalid(path.child('listKind'), names.listKind, `may have mixed case, but should otherwise match: ${listKindErrs.join(',')}`));
  (names.shortNames ?? []).forEach((s, i) => {
    if (isDNS1035Label(s).length) errs.push(field.invalid(path.child('shortNames').index(i), s, isDNS1035Label(s).join(',')));
  });
  if (names.kind && names.kind === names.listKind) errs.push(field.invalid(path.child('listKind'), names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => {
    if (isDNS1035Label(c).length) errs.push(field.invalid(path.child('categories').index(i), c, isDNS1035Label(c).join(',')));
  });
  return errs;
}

const knownTypes = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

// validateStructural checks a CRD's schema in kube-apiserver's steps
// (validateCustomResourceDefinitionValidation): the structural invariants (a type at every
// level, items for arrays, metadata at the root only with name and generateName), reported
// sorted as ValidateStructural sorts them; then, when those hold, the defaults; and in every
// case the OpenAPI schema checks, in the order they walk the schema. A schema that cannot be
// made structural at all (x-kubernetes-preserve-unknown-fields false) skips the first two.
export function validateStructural(schema: JSONSchemaProps, path: FieldPath, root: boolean): FieldError[] {
  const openAPI = openAPISchemaErrors(schema, path, root);
  if (hasPreserveUnknownFieldsFalse(schema)) return openAPI;
  const invariants = structuralInvariantErrors(schema, path, root ? 'root' : 'field').sort((a, b) => compareStrings(a.toString(), b.toString()));
  if (invariants.length > 0) return [...invariants, ...openAPI];
  return [...defaultErrors(schema, path, root), ...openAPI];
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

type SchemaLevel = 'root' | 'field' | 'item';

const missingTypeDetail: Record<SchemaLevel, string> = {
  root: 'must not be empty at the root',
  field: 'must not be empty for specified object fields',
  item: 'must not be empty for specified array items',
};

// childSchemas are a schema's properties (but the root's metadata, checked on its own),
// additionalProperties and items, with their paths and levels.
function childSchemas(schema: JSONSchemaProps, path: FieldPath, root: boolean): { child: JSONSchemaProps; path: FieldPath; level: SchemaLevel }[] {
  const children = Object.entries(schema.properties ?? {})
    .filter(([name]) => !(root && name === 'metadata'))
    .map(([name, child]) => ({ child, path: path.child('properties').key(name), level: 'field' as SchemaLevel }));
  if (typeof schema.additionalProperties === 'object') children.push({ child: schema.additionalProperties, path: path.child('additionalProperties'), level: 'field' });
  if (schema.items) children.push({ child: schema.items, path: path.child('items'), level: 'item' });
  return children;
}

function hasPreserveUnknownFieldsFalse(schema: JSONSchemaProps): boolean {
  return schema['x-kubernetes-preserve-unknown-fields'] === false || childSchemas(schema, field.newPath('x'), false).some(({ child }) => hasPreserveUnknownFieldsFalse(child));
}

// structuralInvariantErrors is validateStructuralInvariants.
function structuralInvariantErrors(schema: JSONSchemaProps, path: FieldPath, level: SchemaLevel): FieldError[] {
  const errs: FieldError[] = [];
  const root = level === 'root';
  if (schema.type === 'array' && !schema.items) errs.push(field.required(path.child('items'), 'must be specified'));
  for (const child of childSchemas(schema, path, root)) errs.push(...structuralInvariantErrors(child.child, child.path, child.level));
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  if (intOrString && schema.type) errs.push(field.invalid(path.child('type'), schema.type, 'must be empty if x-kubernetes-int-or-string is true'));
  if (schema['x-kubernetes-embedded-resource'] && schema.type !== 'object') {
    if (!schema.type) errs.push(field.required(path.child('type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(field.invalid(path.child('type'), schema.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!schema.type && !intOrString && schema['x-kubernetes-preserve-unknown-fields'] !== true) {
    errs.push(field.required(path.child('type'), missingTypeDetail[level]));
  }
  if (root && schema.type && schema.type !== 'object') errs.push(field.invalid(path.child('type'), schema.type, 'must be object at the root'));
  const metadata = schema.properties?.metadata;
  if (root && metadata) errs.push(...validateRootMetadata(metadata, path.child('properties').key('metadata')));
  return errs;
}

// defaultErrors is ValidateDefaults: each default (but at the root) against its schema.
function defaultErrors(schema: JSONSchemaProps, path: FieldPath, root: boolean): FieldError[] {
  const errs = schema.default !== undefined && !root ? validateDefault(schema, schema.default, path.child('default')) : [];
  for (const child of childSchemas(schema, path, root)) errs.push(...defaultErrors(child.child, child.path, false));
  return errs;
}

// openAPISchemaErrors is ValidateCustomResourceDefinitionOpenAPISchema's schema checks.
function openAPISchemaErrors(schema: JSONSchemaProps, path: FieldPath, root: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (schema.type && !knownTypes.includes(schema.type)) errs.push(field.notSupported(path.child('type'), schema.type, knownTypes));
  if (schema.properties && Object.keys(schema.properties).length > 0 && schema.additionalProperties !== undefined && schema.additionalProperties !== true) {
    errs.push(field.forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
  }
  if (schema.uniqueItems === true) errs.push(field.forbidden(path.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  for (const key of ['$ref', 'definitions', 'dependencies', 'patternProperties', 'additionalItems', 'id']) {
    if (schema[key] !== undefined) errs.push(field.forbidden(path.child(key), `${key} is not supported`));
  }
  if (schema.type === 'null') errs.push(field.forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (schema['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(field.invalid(path.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  errs.push(...listAndMapTypeErrors(schema, path));
  for (const child of childSchemas(schema, path, root)) errs.push(...openAPISchemaErrors(child.child, child.path, false));
  return errs;
}

// listAndMapTypeErrors checks the x-kubernetes-list-type, -list-map-keys and -map-type
// markers, as ValidateCustomResourceDefinitionOpenAPISchema does.
function listAndMapTypeErrors(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mapType = schema['x-kubernetes-map-type'];
  if (mapType !== undefined && schema.type !== 'object') {
    if (!schema.type) errs.push(field.required(path.child('type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(field.invalid(path.child('type'), schema.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errs.push(field.notSupported(path.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== undefined && schema.type !== 'array') {
    if (!schema.type) errs.push(field.required(path.child('type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(field.invalid(path.child('type'), schema.type, 'must be array if x-kubernetes-list-type is specified'));
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) errs.push(field.notSupported(path.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (keys.length > 0) {
    if (listType === undefined) errs.push(field.required(path.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(field.invalid(path.child('x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  const items = schema.items;
  if (listType === 'map') {
    if (keys.length === 0) errs.push(field.required(path.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (!items) errs.push(field.required(path.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    else if (items.type !== 'object') errs.push(field.invalid(path.child('items', 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    else {
      const seen = new Set<string>();
      for (const key of keys) {
        const property = items.properties?.[key];
        if (!property) errs.push(field.invalid(path.child('x-kubernetes-list-map-keys'), keys, 'entries must all be names of item properties'));
        else if (property.type === 'array' || property.type === 'object') {
          errs.push(field.invalid(path.child('items', 'properties').key(key).child('type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        }
        if (seen.has(key)) errs.push(field.invalid(path.child('x-kubernetes-list-map-keys'), keys, 'must not contain duplicate entries'));
        seen.add(key);
      }
    }
  }
  if ((listType === 'set' || listType === 'map') && items) {
    if (items.nullable) errs.push(field.forbidden(path.child('items', 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
    if (listType === 'map') {
      const required = new Set((items.required as string[] | undefined) ?? []);
      for (const key of keys) {
        const property = items.properties?.[key];
        if (!property) continue;
        if (!required.has(key) && property.default === undefined) {
          errs.push(field.required(path.child('items', 'properties').key(key).child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
        }
        if (property.nullable) errs.push(field.forbidden(path.child('items', 'properties').key(key).child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  }
  return errs;
}

function validateRootMetadata(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  if (schema.type !== undefined && schema.type !== 'object') return [field.invalid(path.child('type'), schema.type, 'must be object')];
  const allowed = new Set(['type', 'properties']);
  const extra = Object.keys(schema).some((k) => !allowed.has(k));
  const props = Object.keys(schema.properties ?? {});
  const badProps = props.some((p) => p !== 'name' && p !== 'generateName');
  const badInner = props.some((p) => Object.keys(schema.properties?.[p] ?? {}).some((k) => !['type', 'maxLength', 'pattern', 'enum', 'minLength', 'format', 'description'].includes(k)));
  if (extra || badProps || badInner) return [field.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified')];
  return [];
}
