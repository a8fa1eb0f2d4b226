// ResourceDefinition is one row of the declarative registry: everything the gateway needs to
// serve a type. Routing, discovery, OpenAPI, RBAC resource names, field validation, apply merge
// rules and Table output are derived from it; adding a type is adding one definition.
import { KubeObject, Schema } from '@plinth/api';
import { FieldError } from '@plinth/machinery';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const objectVerbs: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  // priority 0 columns show by default; higher ones only with -o wide.
  priority: number;
}

export interface TableDefinition {
  columns: TableColumn[];
  // row returns the cell values, in column order, of one object. now is the server's clock.
  row(object: KubeObject, now: number): unknown[];
}

// StrategyContext carries what a strategy may consult beyond the object: feature gates and the
// clock, never I/O.
export interface StrategyContext {
  featureGates: ReadonlyMap<string, boolean>;
  now: number;
}

// ResourceStrategy holds the per-type policy of the generic store, after
// k8s.io/apiserver/pkg/registry/rest (RESTCreateStrategy, RESTUpdateStrategy) and each type's
// strategy.go. Every hook is pure over the object it is handed (already a private copy).
export interface ResourceStrategy {
  // defaults fills unset fields with their defaults (the SetDefaults_ functions).
  defaults?(object: KubeObject, ctx: StrategyContext): void;
  // prepareForCreate drops what a client may not set on create (status is reset by the store
  // for types with a status subresource) and disabled-gate fields.
  prepareForCreate?(object: KubeObject, ctx: StrategyContext): void;
  prepareForUpdate?(object: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  // prepareForStatusUpdate adjusts a status write (the parent's fields are already the old ones).
  prepareForStatusUpdate?(object: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  // validate checks an object on create and on update; old is the stored object on an update
  // (what may be kept that a new object may not hold: a CRD's pre-existing CEL rules).
  validate(object: KubeObject, ctx: StrategyContext, old?: KubeObject): FieldError[];
  validateUpdate?(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  validateStatusUpdate?(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  // canonicalize changes a valid object before it is stored (Canonicalize), after validation:
  // what kube-apiserver's defaulting does to the object it reads back from storage, which no
  // validation sees (an unlabeled Job takes its generated template labels).
  canonicalize?(object: KubeObject, ctx: StrategyContext): void;
  // selectableFields returns the fields a field selector may test, besides metadata.name and
  // metadata.namespace, which every type supports.
  selectableFields?(object: KubeObject): Record<string, string>;
  // unsupportedFieldLabel words the refusal of another field label, as the type's field label
  // conversion does (absent: `field label not supported: <label>` for types with selectable
  // fields, DefaultMetaV1FieldSelectorConversion's words for the others).
  unsupportedFieldLabel?(label: string): string;
  // warnings returns Warning header texts for a valid object (deprecated fields, ...).
  warnings?(object: KubeObject): string[];
  // gracePeriodSeconds decides the grace period of a delete (pods); absent means 0.
  gracePeriodSeconds?(object: KubeObject, requested: number | undefined): number;
  // holdsDeletion keeps a deleted object around for a reason besides metadata.finalizers
  // (a namespace's spec.finalizers).
  holdsDeletion?(object: KubeObject): boolean;
  // prepareForDeletion changes an object when its deletion starts (a namespace's phase).
  prepareForDeletion?(object: KubeObject): void;
}

// NameValidation is how metadata.name is checked: a DNS-1123 subdomain (most types), a
// DNS-1123 label (namespaces), or only a valid path segment (RBAC).
export type NameValidation = 'dns-subdomain' | 'dns-label' | 'path-segment';

// ScaleSubresource names where a custom resource keeps what its /scale subresource shows.
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ResourceDefinition {
  group: string;
  version: string;
  // resource is the plural lower-case name used in paths.
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs: Verb[];
  // subresources lists the served subresources (status, token, ...).
  subresources?: string[];
  // tracksGeneration is whether metadata.generation is set and bumped on spec changes.
  tracksGeneration?: boolean;
  // statusless types keep no status stanza (RBAC, StorageClass).
  hasStatus?: boolean;
  // statusOnCreate keeps a status sent on create (nodes register with theirs); other types
  // with a status subresource start without one.
  statusOnCreate?: boolean;
  // virtual types (reviews) are created and answered but never stored.
  virtual?: boolean;
  // storageVersion is the version kube-apiserver stores the objects in, when not this one (a
  // custom resource's storage version, v1beta1 for CustomResourceDefinitions); discovery's
  // storageVersionHash names it. Plinth itself stores what it serves.
  storageVersion?: string;
  // alpha and beta versions are off unless --runtime-config turns them on (every beta Plinth
  // serves came after 1.22: Document 1, Versioning; kube-apiserver 1.28 agrees, KEP-3136).
  stability?: 'alpha' | 'beta' | 'stable';
  // schema is the OpenAPI v3 schema of the kind (metadata, apiVersion and kind included).
  schema: Schema;
  // zeroValue is what Go's encoding/json writes of the kind's zero value beside its type and
  // object meta (a struct member is never omitted, a nil slice or pointer without omitempty is
  // null), and metadata.annotations its conversion writes: the body of a BOOKMARK's object.
  // Absent: nothing beside them.
  zeroValue?: Readonly<Record<string, unknown>>;
  strategy: ResourceStrategy;
  table?: TableDefinition;
  // deleteReturnsObject: delete answers with the object instead of a Status.
  deleteReturnsObject?: boolean;
  // allowCreateOnUpdate: PUT of a missing object creates it.
  allowCreateOnUpdate?: boolean;
  // allowUnconditionalUpdate false (AllowUnconditionalUpdate): a PUT must carry the
  // resourceVersion it replaces (Leases); true when absent.
  allowUnconditionalUpdate?: boolean;
  // defaultPropagationPolicy applies when a delete names none (Background when absent).
  defaultPropagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  // orphanByDefaultWarning is the Warning a delete that names no propagation policy gets (jobs,
  // whose pods batch/v1 orphans by default).
  orphanByDefaultWarning?: string;
  nameValidation?: NameValidation;
  // deprecationWarning is sent as a Warning on every request to a deprecated version.
  deprecationWarning?: string;
  // unstructured types (custom resources) keep apiVersion and kind on list items, as
  // kube-apiserver serves them.
  unstructured?: boolean;
  // terminating marks custom resources whose definition is being deleted: no new ones.
  terminating?: boolean;
  // scale is set for custom resources serving the scale subresource.
  scale?: ScaleSubresource;
}

export interface QualifiedResource {
  group: string;
  resource: string;
}

export interface QualifiedKind {
  group: string;
  kind: string;
}
