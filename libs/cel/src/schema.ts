// JSONSchemaProps is the raw OpenAPI v3 schema of a custom resource definition
// (apiextensions.k8s.io/v1 JSONSchemaProps), as CEL rules and their walker read it.
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
}

export interface JSONSchemaProps {
  type?: string;
  format?: string;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  nullable?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
  // x-platform-validations is the name Document 2 gives the same list.
  'x-platform-validations'?: ValidationRule[];
  [key: string]: unknown;
}

// validationRules returns a schema node's rules under either extension name.
export function validationRules(schema: JSONSchemaProps): ValidationRule[] {
  return [...(schema['x-kubernetes-validations'] ?? []), ...(schema['x-platform-validations'] ?? [])];
}

// additionalPropertiesSchema returns the value schema of a map node, if it is one.
export function additionalPropertiesSchema(schema: JSONSchemaProps): JSONSchemaProps | undefined {
  const ap = schema.additionalProperties;
  return typeof ap === 'object' && ap !== null ? ap : undefined;
}

// celTypeName is the type a rule's Invalid error names as its value ("object", "integer"...).
export function celTypeName(schema: JSONSchemaProps): string {
  if (schema['x-kubernetes-int-or-string']) return 'integer';
  return schema.type ?? '';
}

const rootSchemas = new WeakMap<JSONSchemaProps, JSONSchemaProps>();

// withRootMetadata is the schema rules at the root of a custom resource see: apiVersion, kind
// and metadata.name and metadata.generateName are accessible besides the declared properties.
export function withRootMetadata(schema: JSONSchemaProps): JSONSchemaProps {
  let root = rootSchemas.get(schema);
  if (!root) {
    root = {
      ...schema,
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
        ...(schema.properties ?? {}),
      },
    };
    rootSchemas.set(schema, root);
  }
  return root;
}
