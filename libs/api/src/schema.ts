// Schema is the subset of OpenAPI v3 the registry describes types with. The list/map markers
// are kept under neutral names here; the OpenAPI writer emits them as x-platform-* extensions
// (and the x-kubernetes-* twins clients read). Unknown-field detection, defaulting of
// structure, server-side apply merge rules and the published OpenAPI all derive from it.
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema;
  items?: Schema;
  required?: string[];
  enum?: string[];
  default?: unknown;
  intOrString?: boolean;
  preserveUnknownFields?: boolean;
  embeddedResource?: boolean;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  mapType?: 'atomic' | 'granular';
  // patchMergeKey and patchStrategy are the strategic-merge-patch markers of the Go types.
  patchMergeKey?: string;
  patchStrategy?: string;
  // ref names a shared definition (for OpenAPI output); the schema is inlined all the same.
  ref?: string;
  // goType names the field's Go type where type and format do not tell it (types.UID), for
  // the decoder's error messages.
  goType?: string;
}

type Props = Record<string, Schema>;

export const s = {
  string: (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) }),
  uid: (description?: string): Schema => ({ type: 'string', goType: 'types.UID', ...(description ? { description } : {}) }),
  enumOf: (values: string[], description?: string): Schema => ({ type: 'string', enum: values, ...(description ? { description } : {}) }),
  int32: (description?: string): Schema => ({ type: 'integer', format: 'int32', ...(description ? { description } : {}) }),
  int64: (description?: string): Schema => ({ type: 'integer', format: 'int64', ...(description ? { description } : {}) }),
  number: (): Schema => ({ type: 'number', format: 'double' }),
  bool: (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) }),
  // time is a metav1.Time, published as a reference to its definition.
  time: (description?: string): Schema => ({ type: 'string', format: 'date-time', ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time', ...(description ? { description } : {}) }),
  bytes: (): Schema => ({ type: 'string', format: 'byte' }),
  intOrString: (description?: string): Schema => ({ intOrString: true, format: 'int-or-string', ...(description ? { description } : {}) }),
  quantity: (): Schema => ({ intOrString: true, format: 'quantity', ref: 'io.k8s.apimachinery.pkg.api.resource.Quantity' }),
  any: (): Schema => ({ type: 'object', preserveUnknownFields: true }),
  object: (properties: Props, options: Partial<Schema> = {}): Schema => ({ type: 'object', properties, ...options }),
  map: (values: Schema, options: Partial<Schema> = {}): Schema => ({ type: 'object', additionalProperties: values, ...options }),
  stringMap: (description?: string): Schema => ({ type: 'object', additionalProperties: { type: 'string' }, ...(description ? { description } : {}) }),
  array: (items: Schema, options: Partial<Schema> = {}): Schema => ({ type: 'array', items, ...options }),
  // list is a list without a list-type marker, which server-side apply treats as atomic (unless
  // strategic-merge-patch markers say otherwise), as most Kubernetes lists are published.
  list: (items: Schema, description?: string): Schema => ({ type: 'array', items, ...(description ? { description } : {}) }),
  // atomicList is a list marked `+listType=atomic` in Kubernetes' types, published with the marker.
  atomicList: (items: Schema, description?: string): Schema => ({ type: 'array', items, listType: 'atomic', ...(description ? { description } : {}) }),
  setOf: (items: Schema, description?: string): Schema => ({ type: 'array', items, listType: 'set', ...(description ? { description } : {}) }),
  // mapList is a list whose entries are identified by key fields (list-type map).
  mapList: (items: Schema, keys: string[], options: Partial<Schema> = {}): Schema => ({
    type: 'array',
    items,
    listType: 'map',
    listMapKeys: keys,
    patchMergeKey: keys[0],
    patchStrategy: 'merge',
    ...options,
  }),
};
