// How kube-apiserver prints a CustomResourceDefinition's versions in an error (%#v of the
// internal []apiextensions.CustomResourceDefinitionVersion), after apiextensions-apiserver's
// v1 conversion: a schema, subresources or printer columns that every version has alike are
// moved up to the spec, so each version's own is nil.
import { isDeepStrictEqual } from 'node:util';
import { GoLiteral, goQuote } from '@plinth/machinery';
import { CrdVersion, PrinterColumn } from './crd-types';

// goPointer stands for a non-nil pointer's address, which Go prints and nobody can compare.
const goPointer = '(0xc000000000)';

function pointer(type: string, value: unknown): string {
  return value === undefined || value === null ? `(*${type})(nil)` : `(*${type})${goPointer}`;
}

function columnLiteral(c: PrinterColumn): string {
  return `apiextensions.CustomResourceColumnDefinition{Name:${goQuote(c.name ?? '')}, Type:${goQuote(c.type ?? '')}, Format:${goQuote(c.format ?? '')}, Description:${goQuote(c.description ?? '')}, Priority:${c.priority ?? 0}, JSONPath:${goQuote(c.jsonPath ?? '')}}`;
}

function columnsLiteral(columns: PrinterColumn[] | undefined | null): string {
  const type = '[]apiextensions.CustomResourceColumnDefinition';
  return columns ? `${type}{${columns.map(columnLiteral).join(', ')}}` : `${type}(nil)`;
}

// SharedParts are the per-version parts every version sets alike: kube-apiserver's internal
// CustomResourceDefinition holds those once, at spec.validation, spec.subresources and
// spec.additionalPrinterColumns, and each version's own is nil.
export interface SharedParts {
  schema: boolean;
  subresources: boolean;
  columns: boolean;
}

export function sharedParts(versions: CrdVersion[]): SharedParts {
  const alike = (part: (v: CrdVersion) => unknown) => versions.every((v) => isDeepStrictEqual(part(v) ?? null, part(versions[0]) ?? null));
  return { schema: alike((v) => v.schema), subresources: alike((v) => v.subresources), columns: alike((v) => v.additionalPrinterColumns) };
}

// crdVersionsLiteral prints spec.versions as an error's value.
export function crdVersionsLiteral(versions: CrdVersion[] | undefined | null): GoLiteral {
  const type = '[]apiextensions.CustomResourceDefinitionVersion';
  if (!versions) return new GoLiteral(`${type}(nil)`);
  const shared = sharedParts(versions);
  const items = versions.map((v) =>
    [
      `Name:${goQuote(v.name ?? '')}`,
      `Served:${v.served === true}`,
      `Storage:${v.storage === true}`,
      `Deprecated:${v.deprecated === true}`,
      `DeprecationWarning:${pointer('string', v.deprecationWarning)}`,
      `Schema:${pointer('apiextensions.CustomResourceValidation', shared.schema ? undefined : v.schema)}`,
      `Subresources:${pointer('apiextensions.CustomResourceSubresources', shared.subresources ? undefined : v.subresources)}`,
      `AdditionalPrinterColumns:${columnsLiteral(shared.columns ? undefined : v.additionalPrinterColumns)}`,
    ].join(', '),
  );
  return new GoLiteral(`${type}{${items.map((fields) => `apiextensions.CustomResourceDefinitionVersion{${fields}}`).join(', ')}}`);
}

// storedVersionsLiteral prints status.storedVersions as an error's value: nil when no version
// was stored (a create without a storage version).
export function storedVersionsLiteral(storedVersions: string[] | undefined): GoLiteral {
  return new GoLiteral(storedVersions ? `[]string{${storedVersions.map(goQuote).join(', ')}}` : '[]string(nil)');
}
