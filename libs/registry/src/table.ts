// Helpers for Table columns, after k8s.io/kubernetes/pkg/printers/internalversion and
// k8s.io/apimachinery/pkg/util/duration (HumanDuration). A column's description is the one
// printers.go gives it: mostly a field's SwaggerDoc, of the version printers.go names (which
// is not always the served one: DaemonSets take extensions/v1beta1's).
import { KubeObject } from '@plinth/api';
import { TableColumn, TableDefinition } from './resource';

export const nameColumn: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

export const ageColumn: TableColumn = {
  name: 'Age',
  type: 'string',
  format: '',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  priority: 0,
};

// column builds a column definition.
export function column(name: string, type: TableColumn['type'], description: string, priority = 0, format = ''): TableColumn {
  return { name, type, format, description, priority };
}

// defaultTable is the table of types without their own: Name and Created At.
export const defaultTable: TableDefinition = {
  columns: [
    nameColumn,
    { name: 'Created At', type: 'date', format: '', description: ageColumn.description, priority: 0 },
  ],
  row: (object) => [object.metadata.name ?? '', object.metadata.creationTimestamp ?? null],
};

// humanDuration prints a duration the way kubectl's AGE column does.
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(seconds / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

// age is the AGE cell of an object: <unknown> without a creation time.
export function age(object: KubeObject, now: number): string {
  const created = object.metadata.creationTimestamp;
  if (!created) return '<unknown>';
  return humanDuration(now - Date.parse(created));
}
