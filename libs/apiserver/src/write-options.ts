// The options of create, update and patch (dryRun, fieldManager, fieldValidation), validated as
// kube-apiserver does: an invalid value is 422 on CreateOptions, UpdateOptions or PatchOptions.
import { field, FieldError, invalid } from '@plinth/machinery';
import { queryBool } from './request-info';

export type WriteVerb = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

export interface WriteOptions {
  dryRun: boolean;
  // fieldManager is the ?fieldManager value, empty when the request named none.
  fieldManager: string;
}

export function parseDryRun(query: URLSearchParams, errs: FieldError[]): boolean {
  const values = query.getAll('dryRun');
  // ValidateDryRun names the whole list once when any value is not All.
  if (values.some((value) => value !== 'All')) errs.push(field.notSupported(field.newPath('dryRun'), values, ['All']));
  return values.length > 0;
}

// parseWriteOptions validates in kube-apiserver's order: for a patch whose type is known, force
// and the apply patch's fieldManager first; then fieldManager and dryRun.
export function parseWriteOptions(query: URLSearchParams, kind: WriteVerb, patchType?: 'apply' | 'other'): WriteOptions {
  const errs: FieldError[] = [];
  const fieldManager = query.get('fieldManager') ?? '';
  if (patchType === 'other' && query.has('force')) errs.push(field.forbidden(field.newPath('force'), 'may not be specified for non-apply patch'));
  if (patchType === 'apply' && fieldManager === '') errs.push(field.required(field.newPath('fieldManager'), 'is required for apply patch'));
  errs.push(...validateFieldManager(fieldManager));
  const dryRun = parseDryRun(query, errs);
  if (errs.length > 0) throw invalid({ group: 'meta.platform.io', kind }, '', errs);
  return { dryRun, fieldManager };
}

export interface PatchOptions extends WriteOptions {
  // force is ?force (apply patches only).
  force: boolean;
}

// parsePatchOptions is ValidatePatchOptions: force only on an apply patch, a fieldManager
// required on one, then the fieldManager and dryRun checks every write makes.
export function parsePatchOptions(query: URLSearchParams, isApply: boolean): PatchOptions {
  const errs: FieldError[] = [];
  const fieldManager = query.get('fieldManager') ?? '';
  if (!isApply && query.has('force')) errs.push(field.forbidden(field.newPath('force'), 'may not be specified for non-apply patch'));
  if (isApply && !fieldManager) errs.push(field.required(field.newPath('fieldManager'), 'is required for apply patch'));
  errs.push(...validateFieldManager(fieldManager));
  const dryRun = parseDryRun(query, errs);
  if (errs.length > 0) throw invalid({ group: 'meta.platform.io', kind: 'PatchOptions' }, '', errs);
  return { dryRun, fieldManager, force: queryBool(query, 'force') };
}

const fieldManagerMaxLength = 128;

// printable is unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const printableAscii = /^[\x20-\x7e]*$/;

// validateFieldManager is ValidateFieldManager: at most 128 bytes, every character printable
// (reported as %#U at its byte offset).
export function validateFieldManager(fieldManager: string): FieldError[] {
  // Most managers (and every absent one) are short printable ASCII: nothing to report.
  if (fieldManager.length <= fieldManagerMaxLength && printableAscii.test(fieldManager)) return [];
  const errs: FieldError[] = [];
  const path = field.newPath('fieldManager');
  if (Buffer.byteLength(fieldManager, 'utf8') > fieldManagerMaxLength) errs.push(field.tooLong(path, '', fieldManagerMaxLength));
  let offset = 0;
  for (const ch of fieldManager) {
    if (!printable.test(ch)) {
      const code = (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
      errs.push(field.invalid(path, fieldManager, `invalid character U+${code} (at position ${offset})`));
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}
