// Namespaces (v1), after pkg/registry/core/namespace: the "kubernetes" finalizer on create, the
// metadata.name label, phase Active until deletion starts, then Terminating while
// spec.finalizers hold the namespace.
import { KubeObject, kindSchema, LabelMetadataName, s } from '@plinth/api';
import { field, FieldError, FieldPath, validation } from '@plinth/machinery';
import { ResourceDefinition, ResourceStrategy } from '../../resource';
import { ageColumn, age, column, nameColumn } from '../../table';
import { isObj, str, strings } from './validation-helpers';

export const finalizerKubernetes = 'kubernetes';

const standardFinalizers = new Set([finalizerKubernetes, 'orphan', 'foregroundDeletion']);

function spec(ns: KubeObject): Record<string, unknown> {
  if (!isObj(ns.spec)) ns.spec = {};
  return ns.spec as Record<string, unknown>;
}

function status(ns: KubeObject): Record<string, unknown> {
  return isObj(ns.status) ? ns.status : {};
}

function validateFinalizerName(name: string, path: FieldPath): FieldError[] {
  const errs = validation.isQualifiedName(name).map((m) => field.invalid(path, name, m));
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    errs.push(field.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

function validatePhase(ns: KubeObject): FieldError[] {
  const phase = str(status(ns).phase);
  const path = field.newPath('status', 'Phase');
  if (!ns.metadata.deletionTimestamp) {
    return phase === 'Active' ? [] : [field.invalid(path, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? [] : [field.invalid(path, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

export const namespaceStrategy: ResourceStrategy = {
  defaults(ns) {
    // SetDefaults_Namespace labels a named namespace with its name (Canonicalize does the same
    // for generated names, which the store assigns before validation).
    if (ns.metadata.name) ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [LabelMetadataName]: ns.metadata.name };
    if (isObj(ns.status) && !ns.status.phase) ns.status.phase = 'Active';
    // An empty spec.finalizers is none at all (omitempty), so no manager comes to own it.
    const finalizers = spec(ns).finalizers;
    if (Array.isArray(finalizers) && finalizers.length === 0) delete spec(ns).finalizers;
  },
  prepareForCreate(ns) {
    ns.status = { phase: 'Active' };
    const finalizers = strings(spec(ns).finalizers);
    if (!finalizers.includes(finalizerKubernetes)) spec(ns).finalizers = [...finalizers, finalizerKubernetes];
    if (ns.metadata.name) ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [LabelMetadataName]: ns.metadata.name };
  },
  prepareForUpdate(ns, old) {
    // spec.finalizers change only through the finalize subresource.
    spec(ns).finalizers = isObj(old.spec) ? old.spec.finalizers : undefined;
    if (spec(ns).finalizers === undefined) delete spec(ns).finalizers;
  },
  validate(ns) {
    const path = field.newPath('spec', 'finalizers');
    return strings(spec(ns).finalizers).flatMap((f) => validateFinalizerName(f, path));
  },
  // validateStatusUpdate serves both status and finalize: finalizer names, and a phase that
  // agrees with deletionTimestamp.
  validateStatusUpdate(ns, old) {
    const errs: FieldError[] = [];
    const before = JSON.stringify(isObj(old.spec) ? old.spec.finalizers ?? [] : []);
    const finalizers = strings(spec(ns).finalizers);
    if (JSON.stringify(finalizers) !== before) {
      const path = field.newPath('spec', 'finalizers');
      finalizers.forEach((f, i) => errs.push(...validateFinalizerName(f, path.index(i))));
    }
    errs.push(...validatePhase(ns));
    return errs;
  },
  selectableFields: (ns) => ({
    'metadata.name': ns.metadata.name ?? '',
    'status.phase': str(status(ns).phase),
    name: ns.metadata.name ?? '',
  }),
  holdsDeletion: (ns) => strings(isObj(ns.spec) ? ns.spec.finalizers : undefined).length > 0,
  // prepareForDeletion: the namespace registry's own Delete marks the namespace Terminating
  // with a deletionTimestamp and, unlike the generic store, no deletionGracePeriodSeconds.
  prepareForDeletion(ns) {
    ns.status = { ...status(ns), phase: 'Terminating' };
    delete ns.metadata.deletionGracePeriodSeconds;
  },
};

export const namespaceSchema = kindSchema(
  {
    spec: s.object(
      { finalizers: s.array(s.string(), { description: 'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.' }) },
      { ref: 'io.k8s.api.core.v1.NamespaceSpec' },
    ),
    status: s.object(
      {
        phase: s.enumOf(['Active', 'Terminating'], 'Phase is the current lifecycle phase of the namespace.'),
        conditions: s.array(
          s.object(
            { type: s.string(), status: s.string(), lastTransitionTime: s.time(), reason: s.string(), message: s.string() },
            { required: ['type', 'status'], ref: 'io.k8s.api.core.v1.NamespaceCondition' },
          ),
          { patchMergeKey: 'type', patchStrategy: 'merge' },
        ),
      },
      { ref: 'io.k8s.api.core.v1.NamespaceStatus' },
    ),
  },
  'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
  { ref: 'io.k8s.api.core.v1.Namespace' },
);

export const namespaceDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  singular: 'namespace',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  namespaced: false,
  shortNames: ['ns'],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: ['status', 'finalize'],
  tracksGeneration: false,
  hasStatus: true,
  schema: namespaceSchema,
  zeroValue: { spec: {}, status: {} },
  strategy: namespaceStrategy,
  table: {
    columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
    row: (ns, now) => [ns.metadata.name ?? '', str(status(ns).phase), age(ns, now)],
  },
  deleteReturnsObject: true,
  nameValidation: 'dns-label',
};
