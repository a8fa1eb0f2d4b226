import { isStatusError } from '@plinth/machinery';
import { parseWriteOptions } from './write-options';

function refusal(query: string, patchType?: 'apply' | 'other'): string {
  try {
    parseWriteOptions(new URLSearchParams(query), 'PatchOptions', patchType);
  } catch (err) {
    if (isStatusError(err)) return err.errStatus.message ?? '';
  }
  return '';
}

describe('parseWriteOptions for a patch', () => {
  it('forbids force on a patch that is not an apply patch', () => {
    expect(refusal('force=true', 'other')).toBe('PatchOptions.meta.platform.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    expect(refusal('force=false', 'other')).toBe('PatchOptions.meta.platform.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    expect(refusal('force=true&fieldManager=m', 'apply')).toBe('');
  });

  it('requires a fieldManager of an apply patch, before checking the other options', () => {
    expect(refusal('dryRun=Some', 'apply')).toBe('PatchOptions.meta.platform.io "" is invalid: [fieldManager: Required value: is required for apply patch, dryRun: Unsupported value: []string{"Some"}: supported values: "All"]');
  });
});
