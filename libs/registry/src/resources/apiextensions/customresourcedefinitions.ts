// CustomResourceDefinitions (apiextensions.platform.io/v1), after apiextensions-apiserver
// pkg/registry/customresourcedefinition: cluster-scoped, with a status subresource; a create
// starts with empty status and the storage version recorded; a delete first adds the cleanup
// finalizer and the Terminating condition, so the custom resources go before the definition.
import { rfc3339 } from '@plinth/machinery';
import { kindSchema, KubeObject, s } from '@plinth/api';
import { objectVerbs, ResourceDefinition, ResourceStrategy } from '../../resource';
import { defaultTable } from '../../table';
import { validateCrd, validateCrdUpdate } from './crd-validation';
import { CrdObject, customResourceCleanupFinalizer, setCrdCondition } from './crd-types';

const asCrd = (o: KubeObject) => o as CrdObject;

function storageVersion(crd: CrdObject): string | undefined {
  return (crd.spec?.versions ?? []).find((v) => v.storage)?.name;
}

// platformMarkers are the schema extensions Document 1 names x-platform-* (x-platform-list-type,
// ...): a CRD may use either spelling, and is stored with Kubernetes' x-kubernetes-* one, which
// the JSONSchemaProps type defines. (x-platform-validations is read as it is, beside
// x-kubernetes-validations.)
const platformMarkers = ['list-type', 'list-map-keys', 'map-type', 'preserve-unknown-fields', 'int-or-string', 'embedded-resource'];
const nestedSchemas = ['properties', 'patternProperties', 'definitions', 'dependencies'];
const childSchemas = ['items', 'additionalProperties', 'additionalItems', 'not'];
const schemaLists = ['allOf', 'anyOf', 'oneOf'];

// withKubernetesMarkers returns a JSONSchemaProps with every x-platform-* marker renamed to its
// x-kubernetes-* twin (an x-kubernetes-* one already there wins).
export function withKubernetesMarkers<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    const marker = key.startsWith('x-platform-') ? key.slice('x-platform-'.length) : null;
    if (marker !== null && platformMarkers.includes(marker)) {
      const twin = `x-kubernetes-${marker}`;
      if (!(twin in (schema as Record<string, unknown>))) out[twin] = value;
      continue;
    }
    if (nestedSchemas.includes(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, withKubernetesMarkers(child)]));
    } else if (childSchemas.includes(key)) {
      out[key] = Array.isArray(value) ? value.map(withKubernetesMarkers) : withKubernetesMarkers(value);
    } else if (schemaLists.includes(key) && Array.isArray(value)) {
      out[key] = value.map(withKubernetesMarkers);
    } else {
      out[key] = value;
    }
  }
  return out as T;
}

export const crdStrategy: ResourceStrategy = {
  defaults(object) {
    const crd = asCrd(object);
    const spec = crd.spec;
    if (!spec || typeof spec !== 'object') return;
    const names = spec.names;
    if (names && typeof names === 'object') {
      if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
      if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
    }
    spec.conversion ??= { strategy: 'None' };
    for (const version of spec.versions ?? []) {
      if (version?.schema?.openAPIV3Schema) version.schema.openAPIV3Schema = withKubernetesMarkers(version.schema.openAPIV3Schema);
    }
  },
  prepareForCreate(object) {
    const crd = asCrd(object);
    const stored = storageVersion(crd);
    // No storage version leaves storedVersions nil, as kube-apiserver's (which validation refuses).
    crd.status = { acceptedNames: { plural: '', kind: '' }, ...(stored ? { storedVersions: [stored] } : {}) } as CrdObject['status'];
  },
  prepareForUpdate(object, old) {
    const crd = asCrd(object);
    crd.status = structuredClone(asCrd(old).status);
    const stored = storageVersion(crd);
    const storedVersions = crd.status?.storedVersions ?? [];
    if (stored && !storedVersions.includes(stored)) crd.status = { ...crd.status, storedVersions: [...storedVersions, stored] };
  },
  validate: (object, ctx, old) => validateCrd(asCrd(object), old && asCrd(old)),
  validateUpdate: (object, old) => validateCrdUpdate(asCrd(object), asCrd(old)),
  validateStatusUpdate: (object, old) => validateCrd(asCrd(object), asCrd(old)),
  holdsDeletion: (object) => !object.metadata.deletionTimestamp,
  prepareForDeletion(object) {
    const crd = asCrd(object);
    const finalizers = crd.metadata.finalizers ?? [];
    if (!finalizers.includes(customResourceCleanupFinalizer)) crd.metadata.finalizers = [...finalizers, customResourceCleanupFinalizer];
    setCrdCondition(
      crd,
      {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      },
      crd.metadata.deletionTimestamp ?? rfc3339(Date.now()),
    );
  },
};

const names = s.object(
  {
    plural: s.string('plural is the plural name of the resource to serve.'),
    singular: s.string('singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.'),
    shortNames: s.list(s.string(), 'shortNames are short names for the resource, exposed in API discovery documents.'),
    kind: s.string('kind is the serialized kind of the resource. It is normally CamelCase and singular.'),
    listKind: s.string('listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".'),
    categories: s.list(s.string(), 'categories is a list of grouped resources this custom resource belongs to (e.g. \'all\').'),
  },
  { required: ['plural', 'kind'], ref: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames' },
);

const printerColumn = s.object(
  {
    name: s.string('name is a human readable name for the column.'),
    type: s.string('type is an OpenAPI type definition for this column.'),
    format: s.string('format is an optional OpenAPI type definition for this column.'),
    description: s.string('description is a human readable description of this column.'),
    priority: s.int32('priority is an integer defining the relative importance of this column compared to others.'),
    jsonPath: s.string('jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.'),
  },
  { required: ['name', 'type', 'jsonPath'], ref: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition' },
);

const version = s.object(
  {
    name: s.string('name is the version name, e.g. “v1”, “v2beta1”, etc.'),
    served: s.bool('served is a flag enabling/disabling this version from being served via REST APIs'),
    storage: s.bool('storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.'),
    deprecated: s.bool('deprecated indicates this version of the custom resource API is deprecated.'),
    deprecationWarning: s.string('deprecationWarning overrides the default warning returned to API clients.'),
    schema: s.object(
      { openAPIV3Schema: { ...s.any(), description: 'openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.' } },
      { description: 'schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.' },
    ),
    subresources: s.object(
      {
        status: { ...s.any(), description: 'status indicates the custom resource should serve a `/status` subresource.' },
        scale: s.object(
          { specReplicasPath: s.string(), statusReplicasPath: s.string(), labelSelectorPath: s.string() },
          { required: ['specReplicasPath', 'statusReplicasPath'], description: 'scale indicates the custom resource should serve a `/scale` subresource.' },
        ),
      },
      { description: 'subresources specify what subresources this version of the defined custom resource have.' },
    ),
    additionalPrinterColumns: s.list(printerColumn, 'additionalPrinterColumns specifies additional columns returned in Table output.'),
  },
  { required: ['name', 'served', 'storage'], ref: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion' },
);

const condition = s.object(
  {
    type: s.string('type is the type of the condition. Types include Established, NamesAccepted and Terminating.'),
    status: s.string('status is the status of the condition. Can be True, False, Unknown.'),
    lastTransitionTime: s.time('lastTransitionTime last time the condition transitioned from one status to another.'),
    reason: s.string("reason is a unique, one-word, CamelCase reason for the condition's last transition."),
    message: s.string('message is a human-readable message indicating details about last transition.'),
  },
  { required: ['type', 'status'], ref: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition' },
);

export const customResourceDefinitionDefinition: ResourceDefinition = {
  group: 'apiextensions.platform.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  // kube-apiserver 1.28 still stores CustomResourceDefinitions as v1beta1.
  storageVersion: 'v1beta1',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  verbs: objectVerbs,
  subresources: ['status'],
  tracksGeneration: true,
  hasStatus: true,
  schema: kindSchema(
    {
      spec: s.object(
        {
          group: s.string('group is the API group of the defined custom resource.'),
          names,
          scope: s.string('scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.'),
          versions: s.list(version, 'versions is the list of all API versions of the defined custom resource.'),
          conversion: s.object(
            { strategy: s.string('strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `"Webhook"`: API Server will call to an external webhook to do the conversion.'), webhook: s.any() },
            { required: ['strategy'], description: 'conversion defines conversion settings for the CRD.' },
          ),
          preserveUnknownFields: s.bool('preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage.'),
        },
        { required: ['group', 'names', 'scope', 'versions'], description: 'spec describes how the user wants the resources to appear', ref: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec' },
      ),
      status: s.object(
        {
          conditions: s.mapList(condition, ['type'], { description: 'conditions indicate state for particular aspects of a CustomResourceDefinition' }),
          acceptedNames: { ...names, description: 'acceptedNames are the names that are actually being used to serve discovery.' },
          storedVersions: s.list(s.string(), 'storedVersions lists all versions of CustomResources that were ever persisted.'),
        },
        { description: 'status indicates the actual state of the CustomResourceDefinition', ref: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus' },
      ),
    },
    'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
    { required: ['spec'], ref: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition' },
  ),
  strategy: crdStrategy,
  zeroValue: { spec: { group: '', names: { plural: '', kind: '' }, scope: '', versions: null }, status: { acceptedNames: { plural: '', kind: '' }, storedVersions: null } },
  table: defaultTable,
  nameValidation: 'dns-subdomain',
};
