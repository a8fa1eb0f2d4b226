// Table output (meta.platform.io/v1 Table, or meta.k8s.io and v1beta1 when the client asked so): the
// type's columns, one row per object with the object's metadata (includeObject=Metadata, the
// default), the full object (Object) or nothing (None).
import { KubeObject } from '@plinth/api';
import { badRequest } from '@plinth/machinery';
import { defaultTable, TableDefinition } from '@plinth/registry';
import { RequestScope } from './scope';

export interface TableListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

function tableOf(scope: RequestScope): TableDefinition {
  return scope.def.table ?? defaultTable;
}

function includeObject(scope: RequestScope): 'None' | 'Metadata' | 'Object' {
  const value = scope.query.get('includeObject') ?? 'Metadata';
  if (value !== 'None' && value !== 'Metadata' && value !== 'Object') {
    throw badRequest(`includeObject: Unsupported value: "${value}": supported values: "Metadata", "None", "Object"`);
  }
  return value;
}

function tableApiVersion(scope: RequestScope): string {
  const { representation } = scope;
  return representation.type === 'table' ? `${representation.group}/${representation.version}` : 'meta.platform.io/v1';
}

export function toTable(scope: RequestScope, objects: KubeObject[], meta: TableListMeta, withColumns = true): Record<string, unknown> {
  const table = tableOf(scope);
  const include = includeObject(scope);
  const apiVersion = tableApiVersion(scope);
  const now = scope.server.clock.now();
  const rows = objects.map((object) => {
    const row: Record<string, unknown> = { cells: table.row(object, now) };
    if (include === 'Metadata') {
      row.object = { kind: 'PartialObjectMetadata', apiVersion, metadata: object.metadata };
    } else if (include === 'Object') {
      row.object = object;
    } else {
      // A row's object is a RawExtension, which encodes as null when it holds nothing.
      row.object = null;
    }
    return row;
  });
  const result: Record<string, unknown> = { kind: 'Table', apiVersion, metadata: compactMeta(meta) };
  if (withColumns) result.columnDefinitions = table.columns;
  result.rows = rows;
  return result;
}

function compactMeta(meta: TableListMeta): TableListMeta {
  const out: TableListMeta = {};
  if (meta.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta.continue) out.continue = meta.continue;
  if (meta.remainingItemCount !== undefined) out.remainingItemCount = meta.remainingItemCount;
  return out;
}
