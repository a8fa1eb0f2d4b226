// ObjectMeta validation shared by every type, after
// k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
import { KubeObject } from '@plinth/api';
import { field, FieldError, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName, validateAnnotations, validateLabels } from '@plinth/machinery';
import { NameValidation, ResourceDefinition } from '../resource';

const metadataPath = field.newPath('metadata');

function nameErrors(name: string, kind: NameValidation, prefix: boolean): string[] {
  // A generateName prefix is checked with a trailing character removed, as
  // ValidateNameFunc(prefix=true) does, so "job-" is a valid prefix.
  const value = prefix ? maskTrailingDash(name) : name;
  switch (kind) {
    case 'dns-label':
      return isDNS1123Label(value);
    case 'path-segment':
      return isValidPathSegmentName(name);
    case 'dns-subdomain':
    default:
      return isDNS1123Subdomain(value);
  }
}

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

export function validateObjectMeta(object: KubeObject, def: ResourceDefinition): FieldError[] {
  const meta = object.metadata;
  const errs: FieldError[] = [];
  const kind = def.nameValidation ?? 'dns-subdomain';
  if (meta.generateName) {
    for (const msg of nameErrors(meta.generateName, kind, true)) errs.push(field.invalid(metadataPath.child('generateName'), meta.generateName, msg));
  }
  if (!meta.name) {
    errs.push(field.required(metadataPath.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of nameErrors(meta.name, kind, false)) errs.push(field.invalid(metadataPath.child('name'), meta.name, msg));
  }
  if (def.namespaced) {
    if (!meta.namespace) errs.push(field.required(metadataPath.child('namespace'), ''));
    else for (const msg of isDNS1123Label(meta.namespace)) errs.push(field.invalid(metadataPath.child('namespace'), meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(field.forbidden(metadataPath.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateLabels(meta.labels ?? {}, metadataPath.child('labels')));
  errs.push(...validateAnnotations(meta.annotations ?? {}, metadataPath.child('annotations')));
  errs.push(...validateFinalizers(meta.finalizers ?? []));
  return errs;
}

export function validateObjectMetaUpdate(object: KubeObject, old: KubeObject, def: ResourceDefinition): FieldError[] {
  const errs = validateObjectMeta(object, def);
  const meta = object.metadata;
  if (meta.name !== old.metadata.name) errs.push(field.invalid(metadataPath.child('name'), meta.name, 'field is immutable'));
  if ((meta.namespace ?? '') !== (old.metadata.namespace ?? '')) {
    errs.push(field.invalid(metadataPath.child('namespace'), meta.namespace, 'field is immutable'));
  }
  // Once deletion started, finalizers may only be removed.
  if (old.metadata.deletionTimestamp) {
    const before = new Set(old.metadata.finalizers ?? []);
    const added = (meta.finalizers ?? []).filter((f) => !before.has(f));
    if (added.length > 0) {
      errs.push(field.forbidden(metadataPath.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${goList(added)}`));
    }
  }
  return errs;
}

// standardFinalizers may go without a domain prefix; the CRD cleanup finalizer is one, as
// apiextensions-apiserver validates CRD metadata without the core standard-name check.
const standardFinalizers = ['orphan', 'foregroundDeletion', 'customresourcecleanup.apiextensions.k8s.io'];

function validateFinalizers(finalizers: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const path = metadataPath.child('finalizers');
  const seen = new Set<string>();
  finalizers.forEach((f, i) => {
    for (const msg of isQualifiedName(f)) errs.push(field.invalid(path.index(i), f, msg));
    if (!f.includes('/') && !standardFinalizers.includes(f)) {
      errs.push(field.invalid(path.index(i), f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
    seen.add(f);
  });
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(field.invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function goList(values: string[]): string {
  return `[${values.join(' ')}]`;
}
