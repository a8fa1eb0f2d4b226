// Access-review validation with the paths and messages of pkg/apis/authorization/validation
// (v1.28). Reviews are virtual: validate runs on the body as the client sent it, before the
// authorizer fills status.
import { ObjectMeta } from '@plinth/api';
import { field, FieldError, FieldPath, GoLiteral, goQuote, newPath } from '@plinth/machinery';
import { goNull, goStringMapText, goStringSliceText, goStruct } from '../shared/go-values';

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

export interface SubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
  user?: string;
  groups?: string[] | null;
  extra?: Record<string, string[]> | null;
  uid?: string;
}

const isSet = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

// nonResourceAttributesValue renders *authorization.NonResourceAttributes as ErrorBody does.
function nonResourceAttributesValue(attributes: NonResourceAttributes | null | undefined): unknown {
  if (!isSet(attributes)) return goNull;
  return goStruct('authorization.NonResourceAttributes', [
    ['Path', goQuote(attributes.path ?? '')],
    ['Verb', goQuote(attributes.verb ?? '')],
  ]);
}

// validateAttributesChoice: exactly one of resourceAttributes and nonResourceAttributes.
function validateAttributesChoice(spec: { resourceAttributes?: unknown; nonResourceAttributes?: NonResourceAttributes | null }, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const hasResource = isSet(spec.resourceAttributes);
  const hasNonResource = isSet(spec.nonResourceAttributes);
  if (hasResource && hasNonResource) {
    errs.push(field.invalid(path.child('nonResourceAttributes'), nonResourceAttributesValue(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!hasResource && !hasNonResource) {
    errs.push(
      field.invalid(path.child('resourceAttributes'), nonResourceAttributesValue(spec.nonResourceAttributes), 'exactly one of nonResourceAttributes or resourceAttributes must be specified'),
    );
  }
  return errs;
}

// validateSubjectAccessReviewSpec is ValidateSubjectAccessReviewSpec.
export function validateSubjectAccessReviewSpec(spec: SubjectAccessReviewSpec, path: FieldPath): FieldError[] {
  const errs = validateAttributesChoice(spec, path);
  if (!spec.user && (spec.groups ?? []).length === 0) {
    errs.push(field.invalid(path.child('user'), spec.user ?? '', 'at least one of user or group must be specified'));
  }
  return errs;
}

// validateSelfSubjectAccessReviewSpec is ValidateSelfSubjectAccessReviewSpec.
export function validateSelfSubjectAccessReviewSpec(spec: { resourceAttributes?: unknown; nonResourceAttributes?: NonResourceAttributes | null }, path: FieldPath): FieldError[] {
  return validateAttributesChoice(spec, path);
}

function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

// metadataIsEmpty is the reviews' check that ObjectMeta equals its zero value, managedFields
// and the listed fields aside.
export function metadataIsEmpty(meta: ObjectMeta | undefined, ignore: (keyof ObjectMeta)[] = []): boolean {
  return Object.entries(meta ?? {}).every(([key, value]) => key === 'managedFields' || ignore.includes(key as keyof ObjectMeta) || isEmptyValue(value));
}

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function goTime(value: string | undefined): string {
  const ms = value ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  const d = new Date(ms);
  return `time.Date(${d.getUTCFullYear()}, time.${months[d.getUTCMonth()]}, ${d.getUTCDate()}, ${d.getUTCHours()}, ${d.getUTCMinutes()}, ${d.getUTCSeconds()}, 0, time.UTC)`;
}

// objectMetaLiteral renders a v1.ObjectMeta as %#v does (owner references and managed fields
// only by count: their pointers print as addresses).
export function objectMetaLiteral(meta: ObjectMeta | undefined): GoLiteral {
  const m = meta ?? {};
  const owners = m.ownerReferences;
  return goStruct('v1.ObjectMeta', [
    ['Name', goQuote(m.name ?? '')],
    ['GenerateName', goQuote(m.generateName ?? '')],
    ['Namespace', goQuote(m.namespace ?? '')],
    ['SelfLink', goQuote(m.selfLink ?? '')],
    ['UID', goQuote(m.uid ?? '')],
    ['ResourceVersion', goQuote(m.resourceVersion ?? '')],
    ['Generation', String(m.generation ?? 0)],
    ['CreationTimestamp', goTime(m.creationTimestamp)],
    ['DeletionTimestamp', m.deletionTimestamp ? goTime(m.deletionTimestamp) : '<nil>'],
    ['DeletionGracePeriodSeconds', isSet(m.deletionGracePeriodSeconds) ? `(*int64)(${m.deletionGracePeriodSeconds})` : '(*int64)(nil)'],
    ['Labels', goStringMapText(m.labels)],
    ['Annotations', goStringMapText(m.annotations)],
    ['OwnerReferences', owners ? `[]v1.OwnerReference{${owners.map((o) => `v1.OwnerReference{APIVersion:${goQuote(o.apiVersion)}, Kind:${goQuote(o.kind)}, Name:${goQuote(o.name)}, UID:${goQuote(o.uid)}}`).join(', ')}}` : '[]v1.OwnerReference(nil)'],
    ['Finalizers', goStringSliceText(m.finalizers)],
    ['ManagedFields', managedFieldsLiteral(m.managedFields)],
  ]);
}

// managedFieldsLiteral prints the entries the create handler recorded before validation; their
// fieldsV1 is a pointer, printed as an address.
function managedFieldsLiteral(entries: ObjectMeta['managedFields']): string {
  if (!entries) return '[]v1.ManagedFieldsEntry(nil)';
  const entry = (e: NonNullable<ObjectMeta['managedFields']>[number]): string =>
    goStruct('v1.ManagedFieldsEntry', [
      ['Manager', goQuote(e.manager ?? '')],
      ['Operation', goQuote(e.operation ?? '')],
      ['APIVersion', goQuote(e.apiVersion ?? '')],
      ['Time', goTime(e.time)],
      ['FieldsType', goQuote(e.fieldsType ?? '')],
      ['FieldsV1', e.fieldsV1 ? '(*v1.FieldsV1)(0xc000010000)' : '(*v1.FieldsV1)(nil)'],
      ['Subresource', goQuote(e.subresource ?? '')],
    ]).text;
  return `[]v1.ManagedFieldsEntry{${entries.map(entry).join(', ')}}`;
}

function validateEmptyMetadata(meta: ObjectMeta | undefined, ignore: (keyof ObjectMeta)[], detail: string): FieldError[] {
  if (metadataIsEmpty(meta, ignore)) return [];
  return [field.invalid(newPath('metadata'), objectMetaLiteral(meta), detail)];
}

// validateSubjectAccessReview is ValidateSubjectAccessReview.
export function validateSubjectAccessReview(spec: SubjectAccessReviewSpec | undefined, meta: ObjectMeta | undefined): FieldError[] {
  return [...validateSubjectAccessReviewSpec(spec ?? {}, newPath('spec')), ...validateEmptyMetadata(meta, [], 'must be empty')];
}

// validateSelfSubjectAccessReview is ValidateSelfSubjectAccessReview.
export function validateSelfSubjectAccessReview(spec: SubjectAccessReviewSpec | undefined, meta: ObjectMeta | undefined): FieldError[] {
  return [...validateSelfSubjectAccessReviewSpec(spec ?? {}, newPath('spec')), ...validateEmptyMetadata(meta, [], 'must be empty')];
}

// validateLocalSubjectAccessReview is ValidateLocalSubjectAccessReview: only namespaced resource
// checks, in the review's own namespace.
export function validateLocalSubjectAccessReview(spec: SubjectAccessReviewSpec | undefined, meta: ObjectMeta | undefined): FieldError[] {
  const s = spec ?? {};
  const errs = [...validateSubjectAccessReviewSpec(s, newPath('spec')), ...validateEmptyMetadata(meta, ['namespace'], 'must be empty except for namespace')];
  const namespace = meta?.namespace ?? '';
  if (isSet(s.resourceAttributes) && (s.resourceAttributes.namespace ?? '') !== namespace) {
    errs.push(field.invalid(newPath('spec.resourceAttributes.namespace'), s.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
  }
  if (isSet(s.nonResourceAttributes)) {
    errs.push(field.invalid(newPath('spec.nonResourceAttributes'), nonResourceAttributesValue(s.nonResourceAttributes), 'disallowed on this kind of request'));
  }
  return errs;
}
