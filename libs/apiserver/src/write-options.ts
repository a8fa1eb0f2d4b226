// The options of create, update and patch (dryRun, fieldManager, fieldValidation), validated as
// kube-apiserver does: an invalid value is 422 on CreateOptions, UpdateOptions or PatchOptions.
import { field, FieldError, invalid } from '@plinth/machinery';

export type WriteVerb = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

export interface WriteOptions {
  dryRun: boolean;
  // fieldManager is the ?fieldManager value, empty when the request named none.
  fieldManager: string;
}

export function parseDryRun(query: URLSearchParams, errs: FieldError[]): boolean {
  const values = query.getAll('dryRun');
  for (const value of values) {
    if (value !== 'All') errs.push(field.notSupported(field.newPath('dryRun'), value, ['All']));
  }
  return values.length > 0;
}

export function parseWriteOptions(query: URLSearchParams, kind: WriteVerb): WriteOptions {
  const errs: FieldError[] = [];
  const dryRun = parseDryRun(query, errs);
  const fieldManager = query.get('fieldManager') ?? '';
  if (fieldManager.length > 128) errs.push(field.tooLong(field.newPath('fieldManager'), '', 128));
  if (errs.length > 0) throw invalid({ group: 'meta.platform.io', kind }, '', errs);
  return { dryRun, fieldManager };
}
