import { kindSchema, KubeObject, ManagedFieldsEntry, s, Schema } from '@plinth/api';
import { FieldSet } from './field-set';
import { compare, withGoZeroValues } from './typed';
import {
  decodeManagedFields,
  defaultManagerName,
  encodeManagedFields,
  fieldManagerName,
  isResetManagedFields,
  managerIdentifier,
  statusResetFields,
  stripSet,
  updateManagedFields,
} from './managed-fields';
import { deploymentSchema, jobSchema, podSchema } from './testdata/schemas';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

// The Deployment `kubectl create deployment nginx-0930 --image=nginx` posts, after defaulting.
const createdDeployment = (): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'nginx-0930', namespace: 'default', creationTimestamp: null as unknown as string, labels: { app: 'nginx-0930' } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'nginx-0930' } },
    template: {
      metadata: { creationTimestamp: null, labels: { app: 'nginx-0930' } },
      spec: {
        containers: [
          { name: 'nginx', image: 'nginx', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        schedulerName: 'default-scheduler',
      },
    },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
  },
  status: {},
});

// Recorded from kube-apiserver (the POST response of that kubectl create, 2024-10-02).
const deploymentEntryGolden =
  '{"manager":"kubectl-create","operation":"Update","apiVersion":"apps/v1","time":"2024-10-02T17:19:44Z","fieldsType":"FieldsV1","fieldsV1":' +
  '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},' +
  '"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},' +
  '"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},' +
  '"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}}';

const createDeployment = (): KubeObject => {
  const created = createdDeployment();
  created.metadata.managedFields = updateManagedFields({
    live: null,
    updated: created,
    manager: 'kubectl-create',
    apiVersion: 'apps/v1',
    now: new Date('2024-10-02T17:19:44.123Z'),
    schema: deploymentSchema,
    resetFields: statusResetFields(),
  });
  return created;
};

describe('updateManagedFields on create', () => {
  it('gives the creator every field it set, encoded as kube-apiserver does (Deployment)', () => {
    const created = createDeployment();
    expect(created.metadata.managedFields).toHaveLength(1);
    expect(JSON.stringify(created.metadata.managedFields?.[0])).toBe(deploymentEntryGolden);
  });

  it('gives the same set when Go zero values (resources: {}, creationTimestamp: null) are left out', () => {
    const created = createdDeployment();
    const spec = created.spec as { template: { metadata: Record<string, unknown>; spec: { containers: Array<Record<string, unknown>> } } };
    delete spec.template.metadata.creationTimestamp;
    delete spec.template.spec.containers[0].resources;
    delete (created.metadata as Record<string, unknown>).creationTimestamp;
    delete created.status;
    const entries = updateManagedFields({ live: null, updated: created, manager: 'kubectl-create', apiVersion: 'apps/v1', now: new Date('2024-10-02T17:19:44Z'), schema: deploymentSchema });
    expect(JSON.stringify(entries?.[0])).toBe(deploymentEntryGolden);
  });

  it('matches kube-apiserver for a Job created by kubectl apply (client side)', () => {
    const labels = { 'app.kubernetes.io/component': 'admission-webhook', 'app.kubernetes.io/instance': 'ingress-nginx', 'app.kubernetes.io/name': 'ingress-nginx' };
    const job: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'ingress-nginx-admission-create', namespace: 'ingress-nginx', labels, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}\n' } },
      spec: {
        parallelism: 1,
        completions: 1,
        backoffLimit: 6,
        template: {
          metadata: { name: 'ingress-nginx-admission-create', creationTimestamp: null, labels },
          spec: {
            containers: [
              {
                name: 'create',
                image: 'k8s.gcr.io/ingress-nginx/kube-webhook-certgen:v1.0',
                args: ['create', '--namespace=$(POD_NAMESPACE)'],
                env: [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } }],
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'IfNotPresent',
              },
            ],
            restartPolicy: 'OnFailure',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            serviceAccountName: 'ingress-nginx-admission',
            serviceAccount: 'ingress-nginx-admission',
            securityContext: { runAsUser: 2000, runAsNonRoot: true },
            schedulerName: 'default-scheduler',
          },
        },
        completionMode: 'NonIndexed',
        suspend: false,
      },
    };
    const entries = updateManagedFields({
      live: null,
      updated: job,
      manager: 'kubectl-client-side-apply',
      apiVersion: 'batch/v1',
      now: new Date('2021-10-04T02:56:24Z'),
      schema: jobSchema,
      resetFields: statusResetFields(),
    });
    // Recorded from a kube-apiserver list of jobs.batch (ingress-nginx, 2021-10-04).
    expect(JSON.stringify(entries)).toBe(
      '[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"batch/v1","time":"2021-10-04T02:56:24Z","fieldsType":"FieldsV1","fieldsV1":' +
        '{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}},"f:labels":{".":{},"f:app.kubernetes.io/component":{},"f:app.kubernetes.io/instance":{},"f:app.kubernetes.io/name":{}}},' +
        '"f:spec":{"f:backoffLimit":{},"f:completionMode":{},"f:completions":{},"f:parallelism":{},"f:suspend":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app.kubernetes.io/component":{},"f:app.kubernetes.io/instance":{},"f:app.kubernetes.io/name":{}},"f:name":{}},' +
        '"f:spec":{"f:containers":{"k:{\\"name\\":\\"create\\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\\"name\\":\\"POD_NAMESPACE\\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}}},' +
        '"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},' +
        '"f:securityContext":{".":{},"f:runAsNonRoot":{},"f:runAsUser":{}},"f:serviceAccount":{},"f:serviceAccountName":{},"f:terminationGracePeriodSeconds":{}}}}}}]',
    );
  });

  it('matches kube-apiserver for a Pod created by kubectl run', () => {
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'accessor', namespace: 'default', labels: { run: 'accessor' } },
      spec: {
        containers: [{ name: 'accessor', image: 'nginx', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        serviceAccountName: 'default',
        serviceAccount: 'default',
        securityContext: {},
        schedulerName: 'default-scheduler',
        enableServiceLinks: true,
      },
      status: { phase: 'Pending' },
    };
    const entries = updateManagedFields({ live: null, updated: pod, manager: 'kubectl-create', apiVersion: 'v1', now: new Date('2021-05-24T09:29:24Z'), schema: podSchema, resetFields: statusResetFields() });
    expect(JSON.stringify(entries?.[0].fieldsV1)).toBe(
      '{"f:metadata":{"f:labels":{".":{},"f:run":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"accessor\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},' +
        '"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},' +
        '"f:serviceAccount":{},"f:serviceAccountName":{},"f:terminationGracePeriodSeconds":{}}}',
    );
  });

  it('matches kube-apiserver for a Secret (a granular map gets its own ".")', () => {
    const secretSchema = kindSchema({ data: s.map(s.bytes()), type: s.string() }, 'Secret');
    const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'prod-db-secret', namespace: 'default' }, data: { password: 'WTRueXM3ZjEx', username: 'cHJvZHVzZXI=' }, type: 'Opaque' };
    const entries = updateManagedFields({ live: null, updated: secret, manager: 'kubectl-create', apiVersion: 'v1', now: new Date('2021-07-09T05:20:34Z'), schema: secretSchema });
    expect(JSON.stringify(entries)).toBe(
      '[{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"2021-07-09T05:20:34Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:password":{},"f:username":{}},"f:type":{}}}]',
    );
  });

  // The hardening suite's ServiceAccount of 100,000 labels: the comparison shares the labels
  // map rather than copying it, and the set still names every label, sorted as Go sorts them.
  it('owns every label of a map of 100,000, sorted as Go sorts keys, and leaves the object as it was', () => {
    const saSchema = kindSchema({ secrets: s.list(s.object({ name: s.string() })) }, 'ServiceAccount');
    const labels = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`l${i}`, 'v']));
    const account: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'many-labels', namespace: 'default', labels } };
    const before = JSON.stringify(account);
    const entries = updateManagedFields({ live: null, updated: account, manager: 'm', apiVersion: 'v1', now: new Date(0), schema: saSchema });
    const owned = Object.keys(((entries?.[0].fieldsV1 as Record<string, Record<string, unknown>>)['f:metadata'] as Record<string, Record<string, unknown>>)['f:labels']);
    expect(owned.length).toBe(100_001);
    expect(owned.slice(0, 4)).toEqual(['.', 'f:l0', 'f:l1', 'f:l10']);
    expect(owned[owned.length - 1]).toBe('f:l99999');
    expect(JSON.stringify(account)).toBe(before);
  });

  it('uses the managedFields a create carries', () => {
    const created = createdDeployment();
    created.metadata.managedFields = [{ manager: 'imported', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:paused': {} } } }];
    const entries = updateManagedFields({ live: null, updated: created, manager: 'kubectl-create', apiVersion: 'apps/v1', now: new Date(0), schema: deploymentSchema });
    expect(entries?.map((e) => [e.manager, e.operation])).toEqual([
      ['imported', 'Apply'],
      ['kubectl-create', 'Update'],
    ]);
  });
});

describe('updateManagedFields on create, beside the set algebra it stands for', () => {
  // The creator owns (added ∪ modified) − removed of compare, less the reset and stripped fields.
  const byAlgebra = (object: KubeObject, schema: Schema, resetFields?: FieldSet): unknown => {
    const strip = (o: KubeObject) => ({ ...o, metadata: { ...o.metadata, managedFields: undefined } });
    const c = compare(withGoZeroValues({}, schema), withGoZeroValues(JSON.parse(JSON.stringify(strip(object))), schema), schema);
    let set = c.modified.union(c.added).difference(c.removed);
    if (resetFields) set = set.recursiveDifference(resetFields);
    return set.difference(stripSet).toFieldsV1();
  };
  const cases: [string, KubeObject, Schema, FieldSet | undefined][] = [
    ['a Deployment', createdDeployment(), deploymentSchema, statusResetFields()],
    ['a Deployment without its reset fields', createdDeployment(), deploymentSchema, undefined],
    ['a Pod with lists of containers, ports and env', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'd', labels: { a: 'b' }, annotations: { x: 'y' }, finalizers: ['f1', 'f2'] }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'E', value: '1' }] }], nodeSelector: {} }, status: { phase: 'Pending' } }, podSchema, statusResetFields()],
    ['a Job with a status written through /status', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', generateName: 'j-', uid: 'u', resourceVersion: '4', creationTimestamp: '2024-01-01T00:00:00Z' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } }, status: { active: 1 } }, jobSchema, statusResetFields('status')],
  ];
  it.each(cases)('owns what the algebra gives for %s', (_name, object, schema, resetFields) => {
    const entries = updateManagedFields({ live: null, updated: object, manager: 'm', apiVersion: 'v1', now: new Date(0), schema, resetFields });
    expect(entries?.[0].fieldsV1).toEqual(byAlgebra(object, schema, resetFields));
  });
});

describe('updateManagedFields on update', () => {
  const setImage = (live: KubeObject, image: string): KubeObject => {
    const updated = clone(live);
    (updated.spec as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0].image = image;
    return updated;
  };

  it('moves ownership of a changed field to the second manager', () => {
    const live = createDeployment();
    const updated = setImage(live, 'nginx:1.25');
    const entries = updateManagedFields({ live, updated, manager: 'kubectl-set', apiVersion: 'apps/v1', now: new Date('2024-10-02T17:30:00Z'), schema: deploymentSchema, resetFields: statusResetFields() });
    expect(entries?.map((e) => [e.manager, e.time])).toEqual([
      ['kubectl-create', '2024-10-02T17:19:44Z'],
      ['kubectl-set', '2024-10-02T17:30:00Z'],
    ]);
    const creator = FieldSet.fromFieldsV1(entries?.[0].fieldsV1);
    expect(creator.toString()).not.toContain('"f:image"');
    expect(creator.toString()).toContain('"f:imagePullPolicy":{}');
    expect(JSON.stringify(entries?.[1].fieldsV1)).toBe('{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{"f:image":{}}}}}}}');
  });

  it('merges writes of one manager into one entry and leaves no-op writes alone', () => {
    const live = createDeployment();
    const first = setImage(live, 'nginx:1.25');
    first.metadata.managedFields = updateManagedFields({ live, updated: first, manager: 'kubectl-set', apiVersion: 'apps/v1', now: new Date('2024-10-02T17:30:00Z'), schema: deploymentSchema });
    const second = clone(first);
    (second.spec as { replicas: number }).replicas = 3;
    second.metadata.managedFields = updateManagedFields({ live: first, updated: second, manager: 'kubectl-set', apiVersion: 'apps/v1', now: new Date('2024-10-02T17:40:00Z'), schema: deploymentSchema });
    const setter = second.metadata.managedFields?.find((e) => e.manager === 'kubectl-set');
    expect(setter?.time).toBe('2024-10-02T17:40:00Z');
    expect(JSON.stringify(setter?.fieldsV1)).toBe('{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{"f:image":{}}}}}}}');

    const same = updateManagedFields({ live: second, updated: clone(second), manager: 'kubectl-set', apiVersion: 'apps/v1', now: new Date('2024-10-02T18:00:00Z'), schema: deploymentSchema });
    expect(same).toEqual(second.metadata.managedFields);
  });

  it('keeps one entry per (manager, operation, apiVersion, subresource)', () => {
    const live = createDeployment();
    const updated = clone(live);
    updated.status = { replicas: 1 };
    const entries = updateManagedFields({
      live,
      updated,
      manager: 'kube-controller-manager',
      apiVersion: 'apps/v1',
      subresource: 'status',
      now: new Date('2024-10-02T17:19:45Z'),
      schema: deploymentSchema,
      resetFields: statusResetFields('status'),
    });
    expect(JSON.stringify(entries?.[1])).toBe(
      '{"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1","time":"2024-10-02T17:19:45Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:replicas":{}}},"subresource":"status"}',
    );
  });

  it('owns no status through the main resource of a kind with a status subresource', () => {
    const live = createDeployment();
    const updated = clone(live);
    updated.status = { replicas: 5 };
    const entries = updateManagedFields({ live, updated, manager: 'someone', apiVersion: 'apps/v1', now: new Date(), schema: deploymentSchema, resetFields: statusResetFields() });
    expect(entries).toEqual(live.metadata.managedFields);
  });

  it('removes fields a write deletes from their owners', () => {
    const live = createDeployment();
    const updated = clone(live);
    delete (updated.spec as Record<string, unknown>).progressDeadlineSeconds;
    const entries = updateManagedFields({ live, updated, manager: 'editor', apiVersion: 'apps/v1', now: new Date(), schema: deploymentSchema });
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries?.[0].fieldsV1)).not.toContain('progressDeadlineSeconds');
  });

  it('strips managedFields for [{}] and for []', () => {
    const live = createDeployment();
    const reset = clone(live);
    reset.metadata.managedFields = [{}];
    reset.metadata.labels = { app: 'nginx-0930', tier: 'web' };
    const stripped = updateManagedFields({ live, updated: reset, manager: 'admin', apiVersion: 'apps/v1', now: new Date('2024-10-03T00:00:00Z'), schema: deploymentSchema });
    // The reset happens first, so the requester owns what it changed in the same request.
    expect(stripped).toEqual([
      { manager: 'admin', operation: 'Update', apiVersion: 'apps/v1', time: '2024-10-03T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:tier': {} } } } },
    ]);
    const onlyReset = clone(live);
    onlyReset.metadata.managedFields = [{}];
    expect(updateManagedFields({ live, updated: onlyReset, manager: 'admin', apiVersion: 'apps/v1', now: new Date(), schema: deploymentSchema })).toBeUndefined();

    const empty = clone(live);
    empty.metadata.managedFields = [];
    // an empty list resets them too (kube-apiserver 1.28 answers so, whatever its docs say)
    expect(updateManagedFields({ live, updated: empty, manager: 'admin', apiVersion: 'apps/v1', now: new Date(), schema: deploymentSchema })).toBeUndefined();
    expect(isResetManagedFields([{}])).toBe(true);
    expect(isResetManagedFields([])).toBe(true);
    expect(isResetManagedFields(undefined)).toBe(false);
  });

  it('ignores managedFields sent to a subresource and keeps the live ones when the request mangles them', () => {
    const live = createDeployment();
    const updated = clone(live);
    updated.metadata.managedFields = [{}];
    updated.status = { replicas: 1 };
    const entries = updateManagedFields({ live, updated, manager: 'kcm', apiVersion: 'apps/v1', subresource: 'status', now: new Date('2024-10-02T17:19:45Z'), schema: deploymentSchema });
    expect(entries?.map((e) => e.manager)).toEqual(['kubectl-create', 'kcm']);

    const mangled = clone(live);
    mangled.metadata.managedFields = [{ manager: 'x', operation: 'Bogus' as 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    mangled.metadata.labels = { app: 'other' };
    const kept = updateManagedFields({ live, updated: mangled, manager: 'y', apiVersion: 'apps/v1', now: new Date('2024-10-02T18:00:00Z'), schema: deploymentSchema });
    expect(kept?.map((e) => e.manager)).toEqual(['kubectl-create', 'y']);
  });

  it('caps update managers at 10, merging the oldest into ancient-changes', () => {
    let live = createDeployment();
    for (let i = 0; i < 10; i++) {
      const updated = clone(live);
      updated.metadata.labels = { ...updated.metadata.labels, [`l${i}`]: 'x' };
      updated.metadata.managedFields = updateManagedFields({
        live,
        updated,
        manager: `m${i}`,
        apiVersion: 'apps/v1',
        now: new Date(Date.UTC(2024, 10, 2, 18, i)),
        schema: deploymentSchema,
      });
      live = updated;
    }
    const entries = live.metadata.managedFields ?? [];
    expect(entries).toHaveLength(10);
    expect(entries.slice(0, 2).map((e) => [e.manager, e.time])).toEqual([
      ['ancient-changes', '2024-11-02T18:00:00Z'],
      ['m1', '2024-11-02T18:01:00Z'],
    ]);
    expect(JSON.stringify(entries[0].fieldsV1)).toContain('"f:progressDeadlineSeconds":{}');
    expect(JSON.stringify(entries[0].fieldsV1)).toContain('"f:l0":{}');
  });
});

describe('managed fields encoding', () => {
  it('decodes, validates and re-encodes entries sorted as Kubernetes sorts them', () => {
    const entries: ManagedFieldsEntry[] = [
      { manager: 'b', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:02Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:a': {} } },
      { manager: 'z', operation: 'Apply', apiVersion: 'v1', time: '2024-01-01T00:00:09Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:b': {} } },
      { manager: 'a', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:02+00:00', fieldsType: 'FieldsV1', fieldsV1: { 'f:c': {} } },
    ];
    expect(encodeManagedFields(decodeManagedFields(entries))?.map((e) => [e.manager, e.time])).toEqual([
      ['z', '2024-01-01T00:00:09Z'],
      ['a', '2024-01-01T00:00:02Z'],
      ['b', '2024-01-01T00:00:02Z'],
    ]);
    expect(() => decodeManagedFields([{ manager: 'a', operation: 'Update', apiVersion: 'v1' }])).toThrow('missing fieldsType in managed fields entry 0');
    expect(() => decodeManagedFields([{ manager: 'a', operation: 'Update', fieldsType: 'FieldsV1' }])).toThrow('apiVersion must not be empty');
    expect(managerIdentifier({ manager: 'k', operation: 'Apply', apiVersion: 'v1' })).toBe('{"manager":"k","operation":"Apply"}');
    expect(managerIdentifier({ manager: 'k', operation: 'Update', apiVersion: 'v1', subresource: 'status' })).toBe('{"manager":"k","operation":"Update","apiVersion":"v1","subresource":"status"}');
  });
});

describe('manager names', () => {
  it('defaults to the user agent up to the first slash', () => {
    expect(defaultManagerName('kubectl/v1.28.0 (linux/amd64) kubernetes/a1b2c3d')).toBe('kubectl');
    expect(defaultManagerName('kube-controller-manager/v1.28.0 (linux/amd64) kubernetes/a1b2c3d/system:serviceaccount:kube-system:job-controller')).toBe('kube-controller-manager');
    expect(defaultManagerName('my\u0000agent\t/1')).toBe('myagent');
    expect(defaultManagerName('é'.repeat(100))).toHaveLength(64);
    expect(fieldManagerName('kubectl-client-side-apply', 'kubectl/v1.28.0')).toBe('kubectl-client-side-apply');
    expect(fieldManagerName(undefined, 'kubectl/v1.28.0')).toBe('kubectl');
  });
});

describe('updateManagedFields on an object without managed fields', () => {
  const live = (): KubeObject => ({ ...createdDeployment(), metadata: { ...createdDeployment().metadata, uid: 'u1' } });
  const now = new Date('2024-10-02T17:19:44Z');

  it('does not start tracking them on an update, as the skip-non-applied manager does', () => {
    const updated = clone(live());
    (updated.spec as { replicas: number }).replicas = 3;
    expect(updateManagedFields({ live: live(), updated, manager: 'editor', apiVersion: 'apps/v1', now, schema: deploymentSchema })).toBeUndefined();
  });

  it('drops them when the update resets them, even with another change', () => {
    const tracked = live();
    tracked.metadata.managedFields = updateManagedFields({ live: null, updated: createdDeployment(), manager: 'creator', apiVersion: 'apps/v1', now, schema: deploymentSchema });
    expect(tracked.metadata.managedFields).toHaveLength(1);
    const updated = clone(tracked);
    updated.metadata.managedFields = [];
    (updated.spec as { replicas: number }).replicas = 3;
    expect(updateManagedFields({ live: tracked, updated, manager: 'editor', apiVersion: 'apps/v1', now, schema: deploymentSchema })).toBeUndefined();
  });
});

describe('the order of managedFields entries', () => {
  // structured-merge-diff's encoding: by operation (Apply first), then the second of the time,
  // then manager, apiVersion and subresource. The differential suite compares entries in an
  // order of its own (its times are normalised), so the rule is held here.
  const entry = (manager: string, operation: 'Apply' | 'Update', time: string, subresource?: string): ManagedFieldsEntry => ({
    manager,
    operation,
    apiVersion: 'v1',
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { [`f:${manager}`]: {} } } },
    ...(subresource ? { subresource } : {}),
  });

  it('puts Apply before Update, then earlier seconds first, then managers by name within a second', () => {
    const entries = [
      entry('zed', 'Update', '2026-01-01T00:00:01Z'),
      entry('two', 'Apply', '2026-01-01T00:00:02Z'),
      entry('one', 'Apply', '2026-01-01T00:00:02Z', 'status'),
      entry('late', 'Apply', '2026-01-01T00:00:05Z'),
      entry('alpha', 'Update', '2026-01-01T00:00:03Z'),
      entry('early', 'Apply', '2026-01-01T00:00:01Z'),
    ];
    const encoded = encodeManagedFields(decodeManagedFields(entries)) ?? [];
    expect(encoded.map((e) => `${e.operation} ${e.manager}`)).toEqual(['Apply early', 'Apply one', 'Apply two', 'Apply late', 'Update zed', 'Update alpha']);
  });
});
