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

// hoisted says whether every version has the same value of a per-version field.
function hoisted(versions: CrdVersion[], pick: (v: CrdVersion) => unknown): boolean {
  return versions.every((v) => isDeepStrictEqual(pick(v) ?? null, pick(versions[0]) ?? null));
}

// crdVersionsLiteral prints spec.versions as an error's value.
export function crdVersionsLiteral(versions: CrdVersion[] | undefined | null): GoLiteral {
  const type = '[]apiextensions.CustomResourceDefinitionVersion';
  if (!versions) return new GoLiteral(`${type}(nil)`);
  const sameSchema = hoisted(versions, (v) => v.schema);
  const sameSubresources = hoisted(versions, (v) => v.subresources);
  const sameColumns = hoisted(versions, (v) => v.additionalPrinterColumns);
  const items = versions.map((v) =>
    [
      `Name:${goQuote(v.name ?? '')}`,
      `Served:${v.served === true}`,
      `Storage:${v.storage === true}`,
      `Deprecated:${v.deprecated === true}`,
      `DeprecationWarning:${pointer('string', v.deprecationWarning)}`,
      `Schema:${pointer('apiextensions.CustomResourceValidation', sameSchema ? undefined : v.schema)}`,
      `Subresources:${pointer('apiextensions.CustomResourceSubresources', sameSubresources ? undefined : v.subresources)}`,
      `AdditionalPrinterColumns:${columnsLiteral(sameColumns ? undefined : v.additionalPrinterColumns)}`,
    ].join(', '),
  );
  return new GoLiteral(`${type}{${items.map((fields) => `apiextensions.CustomResourceDefinitionVersion{${fields}}`).join(', ')}}`);
}

// storedVersionsLiteral prints status.storedVersions as an error's value: nil when no version
// was stored (a create without a storage version).
export function storedVersionsLiteral(storedVersions: string[] | undefined): GoLiteral {
  return new GoLiteral(storedVersions ? `[]string{${storedVersions.map(goQuote).join(', ')}}` : '[]string(nil)');
}
