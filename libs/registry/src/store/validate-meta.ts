// ObjectMeta validation shared by every type, after
// k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
import { KubeObject, OwnerReference } from '@plinth/api';
import { field, FieldError, GoLiteral, goQuote, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName, validateAnnotations, validateLabels } from '@plinth/machinery';
import { NameValidation, ResourceDefinition } from '../resource';

const metadataPath = field.newPath('metadata');
// Paths are immutable: those every create checks are made once.
const labelsPath = metadataPath.child('labels');
const annotationsPath = metadataPath.child('annotations');

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
  errs.push(...validateLabels(meta.labels ?? {}, labelsPath));
  errs.push(...validateAnnotations(meta.annotations ?? {}, annotationsPath));
  errs.push(...validateOwnerReferences(meta.ownerReferences ?? []));
  errs.push(...validateFinalizers(meta.finalizers ?? [], def));
  return errs;
}

// validateObjectMetaUpdate is what kube-apiserver checks of an update's metadata: the object's
// metadata as on a create, then ValidateObjectMetaAccessorUpdate twice, as kube-apiserver runs it
// once for every type (rest.BeforeUpdate's validateCommonFields) and again in the type's own
// ValidateUpdate, so that each of its errors is a cause twice.
export function validateObjectMetaUpdate(object: KubeObject, old: KubeObject, def: ResourceDefinition): FieldError[] {
  const updateErrors = validateObjectMetaAccessorUpdate(object, old);
  return [...validateObjectMeta(object, def), ...updateErrors, ...updateErrors];
}

// validateObjectMetaAccessorUpdate is ValidateObjectMetaAccessorUpdate's checks of what may not
// change (the rest of it repeats the create checks).
function validateObjectMetaAccessorUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const meta = object.metadata;
  // Once deletion started, finalizers may only be removed.
  if (old.metadata.deletionTimestamp) {
    const before = new Set(old.metadata.finalizers ?? []);
    const added = [...new Set((meta.finalizers ?? []).filter((f) => !before.has(f)))].sort();
    if (added.length > 0) {
      errs.push(field.forbidden(metadataPath.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map(goQuote).join(', ')}}`));
    }
  }
  if (meta.name !== old.metadata.name) errs.push(field.invalid(metadataPath.child('name'), meta.name, 'field is immutable'));
  if ((meta.namespace ?? '') !== (old.metadata.namespace ?? '')) {
    errs.push(field.invalid(metadataPath.child('namespace'), meta.namespace, 'field is immutable'));
  }
  if (meta.deletionGracePeriodSeconds !== old.metadata.deletionGracePeriodSeconds) {
    errs.push(field.invalid(metadataPath.child('deletionGracePeriodSeconds'), meta.deletionGracePeriodSeconds ?? null, 'field is immutable'));
  }
  return errs;
}

// bannedOwners are the kinds that may not own objects (BannedOwners).
const bannedOwners = new Set(['/v1, Kind=Event']);

// parseGroupVersion is schema.ParseGroupVersion: null when the text has more than one slash.
function parseGroupVersion(apiVersion: string): { group: string; version: string } | null {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length > 2) return null;
  return parts.length === 1 ? { group: '', version: apiVersion } : { group: parts[0], version: parts[1] };
}

// goOwnerReference prints an owner reference as %#v prints the Go struct: a set *bool as its
// address (any address; the value is not printed).
function goOwnerReference(ref: OwnerReference): GoLiteral {
  const bool = (b: boolean | undefined) => (b === undefined ? '(*bool)(nil)' : '(*bool)(0xc000010000)');
  return new GoLiteral(
    `v1.OwnerReference{APIVersion:${goQuote(ref.apiVersion ?? '')}, Kind:${goQuote(ref.kind ?? '')}, Name:${goQuote(ref.name ?? '')}, UID:${goQuote(ref.uid ?? '')}, Controller:${bool(ref.controller)}, BlockOwnerDeletion:${bool(ref.blockOwnerDeletion)}}`,
  );
}

// validateOwnerReferences is ValidateOwnerReferences: every reference names a version, a kind,
// a name and a uid (errors on the list's path, without an index), and one controller at most.
function validateOwnerReferences(refs: OwnerReference[]): FieldError[] {
  const errs: FieldError[] = [];
  const path = metadataPath.child('ownerReferences');
  let firstController = '';
  for (const ref of refs) {
    const apiVersion = ref.apiVersion ?? '';
    const gv = parseGroupVersion(apiVersion) ?? { group: '', version: '' };
    if (gv.version === '') errs.push(field.invalid(path.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (!ref.kind) errs.push(field.invalid(path.child('kind'), ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) errs.push(field.invalid(path.child('name'), ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) errs.push(field.invalid(path.child('uid'), ref.uid ?? '', 'uid must not be empty'));
    const gvk = `${gv.group}/${gv.version}, Kind=${ref.kind ?? ''}`;
    if (bannedOwners.has(gvk)) errs.push(field.invalid(path, goOwnerReference(ref), `${gvk} is disallowed from being an owner`));
    if (ref.controller === true) {
      const name = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController === '') firstController = name;
      else {
        const all = new GoLiteral(`[]v1.OwnerReference{${refs.map((r) => goOwnerReference(r).text).join(', ')}}`);
        errs.push(field.invalid(path, all, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`));
      }
    }
  }
  return errs;
}

// standardFinalizers may go without a domain prefix (IsStandardFinalizerName).
const standardFinalizers = ['kubernetes', 'orphan', 'foregroundDeletion'];

// validateFinalizers is apimachinery's ValidateFinalizers (each name a qualified name, errors on
// the list's path), then, for the types validated by the core group's ValidateObjectMeta, its
// check that a name without a domain is a standard one (errors on the element's path).
function validateFinalizers(finalizers: string[], def: ResourceDefinition): FieldError[] {
  const errs: FieldError[] = [];
  const path = metadataPath.child('finalizers');
  for (const f of finalizers) {
    for (const msg of isQualifiedName(f)) errs.push(field.invalid(path, f, msg));
  }
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(field.invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  if (!checksKubeFinalizerNames(def)) return errs;
  finalizers.forEach((f, i) => {
    if (!f.includes('/') && !standardFinalizers.includes(f)) {
      errs.push(field.invalid(path.index(i), f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

// kubeFinalizerNameGroups are the groups whose validation calls the core group's
// ValidateObjectMeta; coordination, node and the apiextensions types (and custom resources) call
// apimachinery's, which takes any qualified name.
const kubeFinalizerNameGroups = new Set(['', 'apps', 'batch', 'rbac.authorization.platform.io', 'storage.platform.io']);

function checksKubeFinalizerNames(def: ResourceDefinition): boolean {
  return !def.unstructured && kubeFinalizerNameGroups.has(def.group);
}
