// The list and watch predicate built from labelSelector and fieldSelector: label selectors
// match metadata.labels, field selectors metadata.name, metadata.namespace and the fields the
// type's strategy exposes. Bad selectors are 400 BadRequest.
import { KubeObject } from '@plinth/api';
import { badRequest, checkFieldSelectorFields, fieldLabelNotSupported, Fields, parseFieldSelector, parseLabelSelector, unknownMetaFieldSelector } from '@plinth/machinery';
import { ListPredicate, ResourceDefinition } from '@plinth/registry';

export function fieldsOf(def: ResourceDefinition, object: KubeObject): Fields {
  const fields: Record<string, string> = { 'metadata.name': object.metadata.name ?? '' };
  if (def.namespaced) fields['metadata.namespace'] = object.metadata.namespace ?? '';
  return { ...fields, ...(def.strategy.selectableFields?.(object) ?? {}) };
}

export function supportedFields(def: ResourceDefinition): string[] {
  return Object.keys(fieldsOf(def, { metadata: { name: '', namespace: '' } }));
}

// fieldLabelRefusal is how the type's field label conversion refuses a label it does not know.
function fieldLabelRefusal(def: ResourceDefinition): (label: string) => string {
  if (def.strategy.unsupportedFieldLabel) return def.strategy.unsupportedFieldLabel;
  return def.strategy.selectableFields ? fieldLabelNotSupported : unknownMetaFieldSelector;
}

const noLabels: Readonly<Record<string, string>> = Object.freeze({});

export function buildPredicate(def: ResourceDefinition, labelSelector: string, fieldSelector: string): ListPredicate {
  let labels;
  let fields;
  try {
    labels = parseLabelSelector(labelSelector);
  } catch (err) {
    throw badRequest((err as Error).message);
  }
  try {
    fields = parseFieldSelector(fieldSelector);
    checkFieldSelectorFields(fields, supportedFields(def), fieldLabelRefusal(def));
  } catch (err) {
    throw badRequest((err as Error).message);
  }
  if (labels.empty() && fields.empty()) return { matches: () => true, empty: true };
  // An object's fields are gathered only for a field selector (a list tests every object).
  const matchesLabels = (object: KubeObject) => labels.matches(object.metadata.labels ?? noLabels);
  if (fields.empty()) return { empty: false, matches: matchesLabels };
  return { empty: false, matches: (object) => matchesLabels(object) && fields.matches(selectableFieldsOf(def, object)) };
}

// frozenFields keeps the fields of the frozen objects (a watch cache's), by definition, so that
// an event tested by thousands of watchers with field selectors (kubelets' spec.nodeName on pods)
// gathers its object's fields once, not once a watcher.
const frozenFields = new WeakMap<ResourceDefinition, WeakMap<KubeObject, Fields>>();

function selectableFieldsOf(def: ResourceDefinition, object: KubeObject): Fields {
  if (!Object.isFrozen(object)) return fieldsOf(def, object);
  let byObject = frozenFields.get(def);
  if (!byObject) {
    byObject = new WeakMap();
    frozenFields.set(def, byObject);
  }
  let fields = byObject.get(object);
  if (!fields) {
    fields = fieldsOf(def, object);
    byObject.set(object, fields);
  }
  return fields;
}
