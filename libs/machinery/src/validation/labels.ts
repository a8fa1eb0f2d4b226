// Label and annotation map validation of metav1 validation and api/validation (v1.28). Errors are
// addressed to the map itself, as in Kubernetes; keys are checked in sorted order.
import { FieldPath } from '../errors/field-path';
import { FieldError, invalid, tooLong } from '../errors/field';
import { compareStrings, utf8Length } from '../go/strings';
import { isQualifiedName, isValidLabelValue } from './names';

// TotalAnnotationSizeLimitB bounds the summed size of all annotation keys and values.
export const TotalAnnotationSizeLimitB = 256 * (1 << 10);

// inKeyOrder runs check on every entry and answers the errors in sorted key order, as the
// reports are written. Only the entries with errors are sorted: a valid map of 100,000 labels
// costs one pass, not millions of comparisons.
function inKeyOrder(map: Readonly<Record<string, string>> | undefined, check: (key: string, value: string) => FieldError[]): FieldError[] {
  const failed: [string, FieldError[]][] = [];
  for (const key of Object.keys(map ?? {})) {
    const errs = check(key, (map as Record<string, string>)[key]);
    if (errs.length > 0) failed.push([key, errs]);
  }
  if (failed.length > 1) failed.sort(([a], [b]) => compareStrings(a, b));
  return failed.flatMap(([, errs]) => errs);
}

export function validateLabelName(name: string, path: FieldPath | null): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: FieldPath | null): FieldError[] {
  return inKeyOrder(labels, (k, v) => [...validateLabelName(k, path), ...isValidLabelValue(v).map((msg) => invalid(path, v, msg))]);
}

// validateAnnotations checks keys as qualified names ignoring case, and the total size.
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: FieldPath | null): FieldError[] {
  let total = 0;
  const errs = inKeyOrder(annotations, (k, v) => {
    total += utf8Length(k) + utf8Length(v);
    return isQualifiedName(k.toLowerCase()).map((msg) => invalid(path, k, msg));
  });
  if (total > TotalAnnotationSizeLimitB) errs.push(tooLong(path, '', TotalAnnotationSizeLimitB));
  return errs;
}
