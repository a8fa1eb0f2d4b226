// Schemas of meta.platform.io/v1 (metav1 in Kubernetes 1.28): ObjectMeta, LabelSelector and the
// envelope every kind shares.
import { s, Schema } from '../schema';

export const ownerReferenceSchema: Schema = s.object(
  {
    apiVersion: s.string('API version of the referent.'),
    kind: s.string('Kind of the referent.'),
    name: s.string('Name of the referent.'),
    uid: s.uid('UID of the referent.'),
    controller: s.bool('If true, this reference points to the managing controller.'),
    blockOwnerDeletion: s.bool('If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.'),
  },
  { required: ['apiVersion', 'kind', 'name', 'uid'], mapType: 'atomic', ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference' },
);

export const managedFieldsEntrySchema: Schema = s.object(
  {
    manager: s.string('Manager is an identifier of the workflow managing these fields.'),
    operation: s.string('Operation is the type of operation which lead to this ManagedFieldsEntry being created.'),
    apiVersion: s.string('APIVersion defines the version of this resource that this field set applies to.'),
    time: s.time('Time is the timestamp of when the ManagedFields entry was added.'),
    fieldsType: s.string('FieldsType is the discriminator for the different fields format and version.'),
    fieldsV1: { ...s.any(), ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1' },
    subresource: s.string('Subresource is the name of the subresource used to update that object.'),
  },
  { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry' },
);

export const objectMetaSchema: Schema = s.object(
  {
    name: s.string('Name must be unique within a namespace.'),
    generateName: s.string('GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.'),
    namespace: s.string('Namespace defines the space within which each name must be unique.'),
    selfLink: s.string('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
    uid: s.uid('UID is the unique in time and space value for this object.'),
    resourceVersion: s.string('An opaque value that represents the internal version of this object.'),
    generation: s.int64('A sequence number representing a specific generation of the desired state.'),
    creationTimestamp: s.time('CreationTimestamp is a timestamp representing the server time when this object was created.'),
    deletionTimestamp: s.time('DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.'),
    deletionGracePeriodSeconds: s.int64('Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.'),
    labels: s.stringMap('Map of string keys and values that can be used to organize and categorize (scope and select) objects.'),
    annotations: s.stringMap('Annotations is an unstructured key value map stored with a resource.'),
    // ownerReferences and finalizers carry strategic-merge-patch markers alone in 1.28 (no
    // list-type), which server-side apply reads as a list keyed by uid and a set.
    ownerReferences: { ...s.list(ownerReferenceSchema, 'List of objects depended by this object.'), patchMergeKey: 'uid', patchStrategy: 'merge' },
    finalizers: { ...s.list(s.string(), 'Must be empty before the object is deleted from the registry.'), patchStrategy: 'merge' },
    managedFields: s.array(managedFieldsEntrySchema, { description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.' }),
  },
  { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
);

export const listMetaSchema: Schema = s.object(
  {
    selfLink: s.string(),
    resourceVersion: s.string(),
    continue: s.string(),
    remainingItemCount: s.int64(),
  },
  { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' },
);

export const labelSelectorRequirementSchema: Schema = s.object(
  {
    key: s.string('key is the label key that the selector applies to.'),
    operator: s.string("operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist."),
    values: s.list(s.string(), 'values is an array of string values.'),
  },
  { required: ['key', 'operator'], ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement' },
);

export const labelSelectorSchema: Schema = s.object(
  {
    matchLabels: s.stringMap('matchLabels is a map of {key,value} pairs.'),
    matchExpressions: s.list(labelSelectorRequirementSchema, 'matchExpressions is a list of label selector requirements. The requirements are ANDed.'),
  },
  { mapType: 'atomic', ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' },
);

export const conditionSchema: Schema = s.object(
  {
    type: s.string(),
    status: s.string(),
    observedGeneration: s.int64(),
    lastTransitionTime: s.time(),
    reason: s.string(),
    message: s.string(),
  },
  { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'], ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.Condition' },
);

// deleteOptionsSchema is metav1.DeleteOptions, the body of a delete.
export const deleteOptionsSchema: Schema = s.object(
  {
    apiVersion: s.string(),
    kind: s.string(),
    gracePeriodSeconds: s.int64(),
    preconditions: s.object({ uid: s.uid(), resourceVersion: s.string() }, { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions' }),
    orphanDependents: s.bool(),
    propagationPolicy: s.string(),
    dryRun: s.list(s.string()),
  },
  { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions' },
);

// kindSchema is the schema of a kind: its own properties plus apiVersion, kind and metadata.
export function kindSchema(properties: Record<string, Schema>, description: string, options: Partial<Schema> = {}): Schema {
  return s.object(
    {
      apiVersion: s.string('APIVersion defines the versioned schema of this representation of an object.'),
      kind: s.string('Kind is a string value representing the REST resource this object represents.'),
      metadata: objectMetaSchema,
      ...properties,
    },
    { description, ...options },
  );
}
