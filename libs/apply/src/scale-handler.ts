// The managed fields of a custom resource's scale subresource, after apimachinery's
// managedfields ScaleHandler: a Scale write is tracked on the Scale (autoscaling/v1, where the
// replicas are spec.replicas) and its owners are mapped back onto the custom resource, whose
// replicas live at the path its definition names (`.spec.replicas`).
import { ManagedFieldsEntry } from '@plinth/api';
import { FieldSet } from './field-set';
import { decodeManagedFields, encodeManagedFields, Managed } from './managed-fields';
import { fieldElement, Path } from './path-element';

const scaleGroupVersion = 'autoscaling/v1';
const replicasPathInScale: Path = [fieldElement('spec'), fieldElement('replicas')];

// replicasFieldPath is a scale path of a definition (`.spec.replicas`) as a field path.
export function replicasFieldPath(jsonPath: string): Path {
  return jsonPath.split('.').filter(Boolean).map(fieldElement);
}

// scaleManagedFields is ToSubresource: the managers of the resource that own its replicas, each
// owning the Scale's spec.replicas (with its time).
export function scaleManagedFields(parentEntries: readonly ManagedFieldsEntry[] | undefined, replicasPath: Path): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scale: Managed = { fields: new Map(), times: new Map() };
  for (const [id, versioned] of parent.fields) {
    if (!versioned.set.has(replicasPath)) continue;
    scale.fields.set(id, { set: FieldSet.of(replicasPathInScale), apiVersion: scaleGroupVersion, applied: versioned.applied });
    scale.times.set(id, parent.times.get(id));
  }
  return encodeManagedFields(scale);
}

// parentManagedFields is ToParent: the resource's managers after a Scale write whose managers
// are scaleEntries. A manager that owned the replicas and no longer does on the Scale loses
// them (and goes when that leaves it nothing); a manager new to the replicas owns them alone,
// in the resource's group version, with the time the resource knew it by (none for a new one).
export function parentManagedFields(
  parentEntries: readonly ManagedFieldsEntry[] | undefined,
  scaleEntries: readonly ManagedFieldsEntry[] | undefined,
  groupVersion: string,
  replicasPath: Path,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scale = decodeManagedFields(scaleEntries).fields;
  const result: Managed = { fields: new Map(), times: new Map() };
  for (const [id, versioned] of parent.fields) {
    if (!versioned.set.has(replicasPath)) {
      result.fields.set(id, versioned);
    } else if (!scale.has(id)) {
      const rest = versioned.set.difference(FieldSet.of(replicasPath));
      if (rest.isEmpty()) continue;
      result.fields.set(id, { ...versioned, set: rest });
    } else {
      result.fields.set(id, versioned);
      scale.delete(id);
    }
    result.times.set(id, parent.times.get(id));
  }
  for (const [id, versioned] of scale) {
    if (!versioned.set.has(replicasPathInScale)) continue;
    result.fields.set(id, { set: FieldSet.of(replicasPath), apiVersion: groupVersion, applied: versioned.applied });
    result.times.set(id, parent.times.get(id));
  }
  return encodeManagedFields(result);
}
