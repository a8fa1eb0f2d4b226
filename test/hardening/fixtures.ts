// The objects hostile requests aim at, in their own namespace: every target creates them before
// the run (and again after a request deleted one), and snapshots their collections.
export const hostileNamespace = 'hostile';
// pathsNamespace is where hostile paths aim: a path that resolves dot segments may reach the
// namespace itself, and must not take the other families' fixtures with it.
export const pathsNamespace = 'hostile-paths';
// sizesNamespace holds the large objects: listing them is slow, and the other families list
// their collections after every write.
export const sizesNamespace = 'hostile-sizes';

export interface Fixture {
  collection: string;
  manifest: Record<string, unknown>;
}

export function collectionsIn(ns: string) {
  return {
    serviceaccounts: `/api/v1/namespaces/${ns}/serviceaccounts`,
    pods: `/api/v1/namespaces/${ns}/pods`,
    roles: `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
    leases: `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
    jobs: `/apis/batch/v1/namespaces/${ns}/jobs`,
    daemonsets: `/apis/apps/v1/namespaces/${ns}/daemonsets`,
  };
}

export const collections = collectionsIn(hostileNamespace);

export type CollectionName = keyof typeof collections;

const podSpec = { containers: [{ name: 'c', image: 'busybox' }] };

// manifests are well-formed objects of each kind, which the generators damage.
export const manifests: Record<CollectionName, (name: string) => Record<string, unknown>> = {
  serviceaccounts: (name) => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {
      name,
      labels: { app: 'hostile' },
      annotations: { note: 'n' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ServiceAccount', name: 'owner', uid: '6b1e3c58-4a8e-4b0e-9a53-1d2f0c7e9a10' }],
    },
    secrets: [{ name: 's' }],
    imagePullSecrets: [{ name: 'p' }],
    automountServiceAccountToken: true,
  }),
  pods: (name) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'hostile' }, finalizers: ['hostile.platform.io/keep'] },
    spec: {
      containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: { limits: { cpu: '100m', memory: '64Mi' } }, env: [{ name: 'A', value: 'b' }] }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      activeDeadlineSeconds: 600,
    },
  }),
  roles: (name) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
  }),
  leases: (name) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name },
    spec: { holderIdentity: 'h', leaseDurationSeconds: 15, acquireTime: '2020-01-01T00:00:00.000000Z', renewTime: '2020-01-01T00:00:01.000000Z', leaseTransitions: 1 },
  }),
  jobs: (name) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { parallelism: 1, completions: 1, backoffLimit: 6, activeDeadlineSeconds: 100, template: { spec: { ...podSpec, restartPolicy: 'Never' } } },
  }),
  daemonsets: (name) => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'hostile' } }, template: { metadata: { labels: { app: 'hostile' } }, spec: podSpec }, minReadySeconds: 0, revisionHistoryLimit: 10 },
  }),
};

export const fixtureName = (collection: CollectionName) => `fixture-${collection}`;

// fixtures are one object of each kind in each namespace. The pod has a finalizer, so that a
// deletion only marks it.
export const fixtures: Fixture[] = [hostileNamespace, pathsNamespace, sizesNamespace].flatMap((ns) => {
  const inNamespace = collectionsIn(ns);
  return (Object.keys(inNamespace) as CollectionName[]).map((name) => ({ collection: inNamespace[name], manifest: manifests[name](fixtureName(name)) }));
});

// A CustomResourceDefinition whose schema hostile values meet: a pattern with nested repetition
// (exponential for a backtracking matcher), a pattern RE2 refuses, an int32, a set, an enum, a
// validation rule, and an object that keeps unknown fields.
export const widgetsCollection = `/apis/hostile.example.com/v1/namespaces/${hostileNamespace}/widgets`;

export const widgetDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.hostile.example.com' },
  spec: {
    group: 'hostile.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [{ rule: "!has(self.mode) || self.mode != 'b' || has(self.size)", message: 'mode b needs a size' }],
                properties: {
                  word: { type: 'string', pattern: '^(a+)+$', maxLength: 100 },
                  strict: { type: 'string', pattern: '^(?=x)' },
                  size: { type: 'integer', format: 'int32', minimum: 0 },
                  tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 }, 'x-kubernetes-list-type': 'set' },
                  mode: { type: 'string', enum: ['a', 'b'] },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
          },
        },
      },
    ],
  },
};

export const widget = (name: string) => ({
  apiVersion: 'hostile.example.com/v1',
  kind: 'Widget',
  metadata: { name, labels: { app: 'hostile' } },
  spec: { word: 'aaaa', size: 3, tags: ['x', 'y'], mode: 'a', labels: { a: 'b' }, free: { anything: [1, { nested: true }] } },
});

export const widgetFixture = 'fixture-widget';
