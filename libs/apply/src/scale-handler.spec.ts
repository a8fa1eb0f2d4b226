// The scale subresource's managed fields, as kube-apiserver 1.28 maps them (the recorded
// differential scenario "a custom resource's scale subresource" shows the same on the wire).
import { ManagedFieldsEntry } from '@plinth/api';
import { parentManagedFields, replicasFieldPath, scaleManagedFields } from './scale-handler';

const time = '2024-01-01T00:00:00Z';
const created: ManagedFieldsEntry = { manager: 'maker', operation: 'Update', apiVersion: 'example.com/v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { '.': {}, 'f:replicas': {} } } };
const status: ManagedFieldsEntry = { manager: 'maker', operation: 'Update', apiVersion: 'example.com/v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status' };
const replicas = replicasFieldPath('.spec.replicas');

describe('scale subresource managed fields', () => {
  it('shows the managers of the replicas on the Scale, with their times', () => {
    expect(scaleManagedFields([created, status], replicas)).toEqual([
      { manager: 'maker', operation: 'Update', apiVersion: 'autoscaling/v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    ]);
  });

  it('gives a new Scale writer the replicas, without a time, and takes them from the manager that lost them', () => {
    const scaleWriter: ManagedFieldsEntry = { manager: 'scaler', operation: 'Update', apiVersion: 'autoscaling/v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' };
    expect(parentManagedFields([created, status], [scaleWriter], 'example.com/v1', replicas)).toEqual([
      { manager: 'scaler', operation: 'Update', apiVersion: 'example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
      { manager: 'maker', operation: 'Update', apiVersion: 'example.com/v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } },
      status,
    ]);
  });

  it('matches managers by identifier: an applier keeps its entry, an updater (whose identifier names its API version) comes back without its time', () => {
    const onlyReplicas: ManagedFieldsEntry = { ...created, fieldsV1: { 'f:spec': { 'f:replicas': {} } } };
    const applied: ManagedFieldsEntry = { ...onlyReplicas, manager: 'applier', operation: 'Apply' };
    const untouched = (entries: ManagedFieldsEntry[]) => parentManagedFields(entries, scaleManagedFields(entries, replicas), 'example.com/v1', replicas);
    expect(untouched([applied])).toEqual([applied]);
    expect(untouched([onlyReplicas])).toEqual([{ manager: 'maker', operation: 'Update', apiVersion: 'example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }]);
    expect(parentManagedFields([onlyReplicas], [], 'example.com/v1', replicas)).toBeUndefined();
  });
});
