import { Schema } from '../schema';
import { containerSchema, nodeStatusSchema, podSpecSchema, podStatusSchema, podTemplateSpecSchema, volumeSchema } from './core';
import { kindSchema, objectMetaSchema } from './meta';

const props = (schema: Schema): string[] => Object.keys(schema.properties ?? {}).sort();
const prop = (schema: Schema, name: string): Schema | undefined => schema.properties?.[name];

describe('core schemas', () => {
  it('lists every PodSpec field of v1.28', () => {
    expect(props(podSpecSchema)).toEqual(
      [
        'activeDeadlineSeconds', 'affinity', 'automountServiceAccountToken', 'containers', 'dnsConfig', 'dnsPolicy', 'enableServiceLinks',
        'ephemeralContainers', 'hostAliases', 'hostIPC', 'hostNetwork', 'hostPID', 'hostUsers', 'hostname', 'imagePullSecrets', 'initContainers',
        'nodeName', 'nodeSelector', 'os', 'overhead', 'preemptionPolicy', 'priority', 'priorityClassName', 'readinessGates', 'resourceClaims',
        'restartPolicy', 'runtimeClassName', 'schedulerName', 'schedulingGates', 'securityContext', 'serviceAccount', 'serviceAccountName',
        'setHostnameAsFQDN', 'shareProcessNamespace', 'subdomain', 'terminationGracePeriodSeconds', 'tolerations', 'topologySpreadConstraints',
        'volumes',
      ].sort(),
    );
  });

  it('lists every Container field and marks list keys', () => {
    expect(props(containerSchema)).toEqual(
      [
        'args', 'command', 'env', 'envFrom', 'image', 'imagePullPolicy', 'lifecycle', 'livenessProbe', 'name', 'ports', 'readinessProbe',
        'resizePolicy', 'resources', 'restartPolicy', 'securityContext', 'startupProbe', 'stdin', 'stdinOnce', 'terminationMessagePath',
        'terminationMessagePolicy', 'tty', 'volumeDevices', 'volumeMounts', 'workingDir',
      ].sort(),
    );
    const ports = prop(containerSchema, 'ports');
    expect(ports).toMatchObject({ listType: 'map', listMapKeys: ['containerPort', 'protocol'], patchMergeKey: 'containerPort', patchStrategy: 'merge' });
    expect(prop(containerSchema, 'env')).toMatchObject({ patchMergeKey: 'name', patchStrategy: 'merge' });
    expect(prop(containerSchema, 'volumeMounts')).toMatchObject({ patchMergeKey: 'mountPath', patchStrategy: 'merge' });
    expect(prop(podSpecSchema, 'volumes')).toMatchObject({ patchMergeKey: 'name', patchStrategy: 'merge,retainKeys' });
    expect(prop(podSpecSchema, 'topologySpreadConstraints')).toMatchObject({ listMapKeys: ['topologyKey', 'whenUnsatisfiable'] });
  });

  it('has every volume source', () => {
    expect(props(volumeSchema)).toHaveLength(30);
  });

  it('describes status and templates', () => {
    expect(props(podStatusSchema)).toContain('qosClass');
    expect(props(podStatusSchema)).toContain('hostIPs');
    expect(props(nodeStatusSchema)).toContain('daemonEndpoints');
    expect(props(podTemplateSpecSchema)).toEqual(['metadata', 'spec']);
  });
});

describe('meta schemas', () => {
  it('keys ownerReferences by uid and keeps finalizers a set, by their strategic-merge-patch markers alone as 1.28 publishes them', () => {
    expect(prop(objectMetaSchema, 'ownerReferences')).toMatchObject({ patchMergeKey: 'uid', patchStrategy: 'merge' });
    expect(prop(objectMetaSchema, 'ownerReferences')?.listType).toBeUndefined();
    expect(prop(objectMetaSchema, 'finalizers')).toMatchObject({ patchStrategy: 'merge' });
    expect(prop(objectMetaSchema, 'finalizers')?.listType).toBeUndefined();
    expect(props(objectMetaSchema)).toHaveLength(15);
  });

  it('wraps kinds', () => {
    expect(props(kindSchema({ spec: { type: 'object' } }, 'x'))).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });
});
