// controllerrevisions (apps/v1 ControllerRevision): immutable snapshots of a controller's
// template, after pkg/registry/apps/controllerrevision/strategy.go and ValidateControllerRevision
// (v1.28).
import { ControllerRevision, KubeObject } from '@plinth/api';
import { field, FieldError, GoLiteral, newPath, semanticEqual } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy, TableDefinition } from '../../resource';
import { age, ageColumn, column, nameColumn } from '../../table';
import { controllerRevisionSchema } from './daemonset-schema';
import { goBytesText } from '../shared/go-values';

// dataLiteral renders the internal Data (a *runtime.Unknown holding the JSON) as %#v does.
function dataLiteral(data: unknown): GoLiteral {
  if (data === undefined || data === null) return new GoLiteral('"null"');
  const raw = new TextEncoder().encode(JSON.stringify(data));
  return new GoLiteral(`runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:${goBytesText(raw)}, ContentEncoding:"", ContentType:"application/json"}`);
}

export const controllerRevisionStrategy: ResourceStrategy = {
  defaults(object: KubeObject): void {
    // revision has no omitempty: a missing one is the zero value.
    const revision = object as ControllerRevision;
    if (revision.revision === undefined || revision.revision === null) revision.revision = 0;
  },
  validate(object: KubeObject): FieldError[] {
    const revision = object as ControllerRevision;
    const errs: FieldError[] = [];
    if (revision.data === undefined || revision.data === null) errs.push(field.required(newPath('data'), 'data is mandatory'));
    const value = revision.revision ?? 0;
    if (value < 0) errs.push(field.invalid(newPath('revision'), value, 'must be greater than or equal to 0'));
    return errs;
  },
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[] {
    const data = (object as ControllerRevision).data;
    if (semanticEqual(data, (old as ControllerRevision).data)) return [];
    return [field.invalid(newPath('data'), dataLiteral(data), 'field is immutable')];
  },
};

// controllerName is the CONTROLLER cell: <kind>.<group>/<name> of the controlling owner.
export function controllerName(object: KubeObject): string {
  const ref = (object.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash >= 0 ? ref.apiVersion.slice(0, slash) : '';
  const kind = group ? `${ref.kind}.${group}` : ref.kind;
  return kind ? `${kind.toLowerCase()}/${ref.name}` : ref.name;
}

export const controllerRevisionTable: TableDefinition = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', 'revision indicates the revision of the state represented by Data.'),
    ageColumn,
  ],
  row(object: KubeObject, now: number): unknown[] {
    return [object.metadata.name ?? '', controllerName(object), (object as ControllerRevision).revision ?? 0, age(object, now)];
  },
};

export const controllerRevisionDefinition: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  resource: 'controllerrevisions',
  singular: 'controllerrevision',
  kind: 'ControllerRevision',
  listKind: 'ControllerRevisionList',
  namespaced: true,
  verbs: objectVerbs,
  hasStatus: false,
  schema: controllerRevisionSchema,
  zeroValue: { data: null, revision: 0 },
  strategy: controllerRevisionStrategy,
  table: controllerRevisionTable,
  nameValidation: 'dns-subdomain',
};
