// validateAgainstOpenApi checks a manifest against Kubernetes' published OpenAPI (swagger 2.0
// definitions, test/helm/testdata/k8s-1.28-openapi.json) as the API server's strict field
// validation would: every field must be a property of its type (or a key of a map), every
// required field present, every value of its type. IntOrString takes an integer or a string,
// Quantity a number or a string, as their JSON decoders do; null is the zero value of an
// optional field, as for Go's decoder.
export interface OpenApiDocument {
  definitions: Record<string, OpenApiSchema>;
}

export interface OpenApiSchema {
  type?: string;
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  required?: string[];
  enum?: unknown[];
  $ref?: string;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

const intOrString = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const quantity = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

// definitionOf names the definition of a manifest's apiVersion and kind, if the document has it.
export function definitionOf(document: OpenApiDocument, apiVersion: string, kind: string): string | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return Object.keys(document.definitions).find((name) =>
    (document.definitions[name]['x-kubernetes-group-version-kind'] ?? []).some((gvk) => gvk.group === group && gvk.version === version && gvk.kind === kind),
  );
}

// validateAgainstOpenApi returns the problems found, each with the field path.
export function validateAgainstOpenApi(document: OpenApiDocument, definition: string, value: unknown): string[] {
  const problems: string[] = [];
  check(document, { $ref: `#/definitions/${definition}` }, value, '', problems);
  return problems;
}

function check(document: OpenApiDocument, schema: OpenApiSchema, value: unknown, path: string, problems: string[]): void {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/definitions/', '');
    if (name === intOrString) return expect(typeof value === 'string' || Number.isInteger(value), 'an integer or a string', value, path, problems);
    if (name === quantity) return expect(typeof value === 'string' || typeof value === 'number', 'a quantity', value, path, problems);
    const resolved = document.definitions[name];
    if (!resolved) return void problems.push(`${path || '.'}: no definition ${name}`);
    return check(document, resolved, value, path, problems);
  }
  if (value === null) return;
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  switch (schema.type) {
    case 'object':
      return checkObject(document, schema, value, path, problems);
    case 'array':
      if (!Array.isArray(value)) return expect(false, 'an array', value, path, problems);
      value.forEach((item, i) => check(document, schema.items ?? {}, item, `${path}[${i}]`, problems));
      return;
    case 'string':
      return expect(typeof value === 'string', 'a string', value, path, problems);
    case 'integer':
      return expect(Number.isInteger(value), 'an integer', value, path, problems);
    case 'number':
      return expect(typeof value === 'number', 'a number', value, path, problems);
    case 'boolean':
      return expect(typeof value === 'boolean', 'a boolean', value, path, problems);
    default:
      if (schema.properties) return checkObject(document, schema, value, path, problems);
      // No type (RawExtension, JSON): anything goes.
      return;
  }
}

function checkObject(document: OpenApiDocument, schema: OpenApiSchema, value: unknown, path: string, problems: string[]): void {
  if (typeof value !== 'object' || Array.isArray(value)) return expect(false, 'an object', value, path, problems);
  const fields = value as Record<string, unknown>;
  for (const name of schema.required ?? []) if (fields[name] === undefined || fields[name] === null) problems.push(`${path}.${name}: required`);
  for (const [name, field] of Object.entries(fields)) {
    const property = schema.properties?.[name];
    if (property) check(document, property, field, `${path}.${name}`, problems);
    else if (typeof schema.additionalProperties === 'object') check(document, schema.additionalProperties, field, `${path}.${name}`, problems);
    else if (schema.additionalProperties !== true) problems.push(`${path}.${name}: unknown field`);
  }
}

function expect(ok: boolean, what: string, value: unknown, path: string, problems: string[]): void {
  if (!ok) problems.push(`${path}: ${JSON.stringify(value)} is not ${what}`);
}
