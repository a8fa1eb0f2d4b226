// Shared definitions of meta.platform.io/v1 that operations refer to (Status, DeleteOptions,
// WatchEvent, Patch) and the scalar types Kubernetes publishes under their own names (Time,
// MicroTime, Quantity, IntOrString, ...). Struct types are written as Schemas so the same writer
// renders them in both dialects; scalars differ between Swagger 2.0 and OpenAPI 3 and are given
// per dialect, as kube-openapi gives them (OpenAPIDefinition vs OpenAPIV3Definition).
import { labelSelectorSchema, listMetaSchema, objectMetaSchema, s, Schema } from '@plinth/api';
import { metaDefinition } from './names';

export type Dialect = 'v2' | 'v3';
export type JsonObject = Record<string, unknown>;

const apiVersion = (): Schema => s.string('APIVersion defines the versioned schema of this representation of an object.');
const kind = (): Schema => s.string('Kind is a string value representing the REST resource this object represents.');

export const names = {
  status: metaDefinition('Status'),
  deleteOptions: metaDefinition('DeleteOptions'),
  watchEvent: metaDefinition('WatchEvent'),
  patch: metaDefinition('Patch'),
  intOrString: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  quantity: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
  rawExtension: 'io.k8s.apimachinery.pkg.runtime.RawExtension',
  time: metaDefinition('Time'),
  microTime: metaDefinition('MicroTime'),
  fieldsV1: metaDefinition('FieldsV1'),
};

const statusCauseSchema = s.object(
  {
    field: s.string('The field of the resource that has caused this error, as named by its JSON serialization.'),
    message: s.string('A human-readable description of the cause of the error.'),
    reason: s.string('A machine-readable description of the cause of the error. If this value is empty there is no information available.'),
  },
  { description: 'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.', ref: metaDefinition('StatusCause') },
);

const statusDetailsSchema = s.object(
  {
    causes: s.list(statusCauseSchema, 'The Causes array includes more details associated with the StatusReason failure.'),
    group: s.string('The group attribute of the resource associated with the status StatusReason.'),
    kind: s.string('The kind attribute of the resource associated with the status StatusReason.'),
    name: s.string('The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).'),
    retryAfterSeconds: s.int32('If specified, the time in seconds before the operation should be retried.'),
    uid: s.string('UID of the resource. (when there is a single resource which can be described).'),
  },
  { description: 'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.', ref: metaDefinition('StatusDetails') },
);

export const statusSchema: Schema = s.object(
  {
    apiVersion: apiVersion(),
    code: s.int32('Suggested HTTP return code for this status, 0 if not set.'),
    details: statusDetailsSchema,
    kind: kind(),
    message: s.string('A human-readable description of the status of this operation.'),
    metadata: listMetaSchema,
    reason: s.string('A machine-readable description of why this operation is in the "Failure" status.'),
    status: s.string('Status of the operation. One of: "Success" or "Failure".'),
  },
  { description: 'Status is a return value for calls that don\'t return other objects.', ref: names.status },
);

const preconditionsSchema = s.object(
  {
    resourceVersion: s.string('Specifies the target ResourceVersion'),
    uid: s.string('Specifies the target UID.'),
  },
  { description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.', ref: metaDefinition('Preconditions') },
);

export const deleteOptionsSchema: Schema = s.object(
  {
    apiVersion: apiVersion(),
    dryRun: s.list(s.string(), 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed'),
    gracePeriodSeconds: s.int64('The duration in seconds before the object should be deleted.'),
    kind: kind(),
    orphanDependents: s.bool('Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.'),
    preconditions: preconditionsSchema,
    propagationPolicy: s.string("Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'."),
  },
  { description: 'DeleteOptions may be provided when deleting an API object.', ref: names.deleteOptions },
);

export const watchEventSchema: Schema = s.object(
  {
    object: { type: 'object', description: 'Object is: * If Type is Added or Modified: the new state of the object. * If Type is Deleted: the state of the object immediately before deletion. * If Type is Error: *Status is recommended; other types may make sense depending on context.', ref: names.rawExtension },
    type: s.string(),
  },
  { required: ['type', 'object'], description: 'Event represents a single event to a watched resource.', ref: names.watchEvent },
);

export const patchSchema: Schema = { type: 'object', description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', ref: names.patch };

// alwaysPublished are the shared definitions every document carries, used or not.
export const alwaysPublished: Schema[] = [objectMetaSchema, listMetaSchema, labelSelectorSchema, statusSchema, deleteOptionsSchema, watchEventSchema, patchSchema];
export const alwaysPublishedScalars = [names.time, names.microTime, names.quantity, names.intOrString];

// scalarDefinitions are the definitions that differ by dialect; they win over a Schema that
// carries the same ref (s.quantity() names Quantity but describes it in the Schema vocabulary).
export function scalarDefinitions(dialect: Dialect): Record<string, JsonObject> {
  const oneOf = (types: string[]) => (dialect === 'v3' ? { oneOf: types.map((type) => ({ type })) } : { type: 'string' });
  return {
    [names.intOrString]: {
      description: 'IntOrString is a type that can hold an int32 or a string.',
      format: 'int-or-string',
      ...oneOf(['integer', 'string']),
      'x-kubernetes-int-or-string': true,
      'x-platform-int-or-string': true,
    },
    [names.quantity]: {
      description: 'Quantity is a fixed-point representation of a number, serialized as a string such as "1Gi", "500m" or "1.5".',
      ...oneOf(['string', 'number']),
    },
    [names.time]: { description: 'Time is a wrapper around time.Time, serialized as RFC 3339.', type: 'string', format: 'date-time' },
    [names.microTime]: { description: 'MicroTime is version of Time with microsecond level precision.', type: 'string', format: 'date-time' },
    [names.fieldsV1]: { description: 'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.', type: 'object' },
    [names.rawExtension]: { description: 'RawExtension is used to hold extensions in external versions: any embedded object.', type: 'object' },
  };
}
