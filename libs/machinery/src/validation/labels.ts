// Label and annotation map validation of metav1 validation and api/validation (v1.28). Errors are
// addressed to the map itself, as in Kubernetes; keys are checked in sorted order.
import { FieldPath } from '../errors/field-path';
import { FieldError, invalid, tooLong } from '../errors/field';
import { compareStrings, utf8Length } from '../go/strings';
import { isQualifiedName, isValidLabelValue } from './names';

// TotalAnnotationSizeLimitB bounds the summed size of all annotation keys and values.
export const TotalAnnotationSizeLimitB = 256 * (1 << 10);

function sortedEntries(map: Readonly<Record<string, string>> | undefined): [string, string][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => compareStrings(a, b));
}

export function validateLabelName(name: string, path: FieldPath | null): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: FieldPath | null): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of sortedEntries(labels)) {
    errs.push(...validateLabelName(k, path));
    errs.push(...isValidLabelValue(v).map((msg) => invalid(path, v, msg)));
  }
  return errs;
}

// validateAnnotations checks keys as qualified names ignoring case, and the total size.
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: FieldPath | null): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of sortedEntries(annotations)) {
    errs.push(...isQualifiedName(k.toLowerCase()).map((msg) => invalid(path, k, msg)));
    total += utf8Length(k) + utf8Length(v);
  }
  if (total > TotalAnnotationSizeLimitB) errs.push(tooLong(path, '', TotalAnnotationSizeLimitB));
  return errs;
}
