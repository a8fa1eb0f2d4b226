import {
  ConfigurationError,
  controllerWorkers,
  loadCloudControllerManagerConfiguration,
  loadControllerManagerConfiguration,
  loadLeaderMigrationConfiguration,
  parseDuration,
  PlatformControllerManagerConfiguration,
} from './index';

const header = 'apiVersion: platformcontrollermanager.config.platform.io/v1alpha1\nkind: PlatformControllerManagerConfiguration\n';

// errorsOf loads a document that must fail and returns the failure's field errors as text.
function errorsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (e) {
    if (e instanceof ConfigurationError) return e.errors.map(String);
    throw e;
  }
  throw new Error('expected a ConfigurationError');
}

const kcm = (body: string) => () => loadControllerManagerConfiguration(header + body);

describe('loadControllerManagerConfiguration', () => {
  it('defaults an empty document as Kubernetes does', () => {
    const c = loadControllerManagerConfiguration(header);
    expect(c.apiVersion).toBe('platformcontrollermanager.config.platform.io/v1alpha1');
    expect(c.Generic).toEqual({
      Port: 0,
      Address: '0.0.0.0',
      MinResyncPeriod: '12h0m0s',
      ClientConnection: { kubeconfig: '', acceptContentTypes: '', contentType: 'application/vnd.kubernetes.protobuf', qps: 20, burst: 30 },
      ControllerStartInterval: '0s',
      LeaderElection: {
        leaderElect: true,
        leaseDuration: '15s',
        renewDeadline: '10s',
        retryPeriod: '2s',
        resourceLock: 'leases',
        resourceName: 'kube-controller-manager',
        resourceNamespace: 'kube-system',
      },
      Controllers: ['*'],
      Debugging: { enableProfiling: true, enableContentionProfiling: false },
      LeaderMigrationEnabled: false,
      LeaderMigration: { leaderName: '', resourceLock: 'leases', controllerLeaders: [] },
    });
    expect(c.JobController.ConcurrentJobSyncs).toBe(5);
    expect(c.DaemonSetController.ConcurrentDaemonSetSyncs).toBe(2);
    expect(c.TTLAfterFinishedController.ConcurrentTTLSyncs).toBe(5);
    expect(c.GarbageCollectorController).toEqual({ EnableGarbageCollector: true, ConcurrentGCSyncs: 20, GCIgnoredResources: [] });
    expect(c.NamespaceController).toEqual({ NamespaceSyncPeriod: '5m0s', ConcurrentNamespaceSyncs: 10 });
    expect(c.AttachDetachController.ReconcilerSyncLoopPeriod).toBe('1m0s');
    expect(c.CSRSigningController.ClusterSigningDuration).toBe('8760h0m0s');
    expect(c.HPAController.HorizontalPodAutoscalerTolerance).toBe(0.1);
    expect(c.HPAController.HorizontalPodAutoscalerSyncPeriod).toBe('15s');
    expect(c.PodGCController.TerminatedPodGCThreshold).toBe(12500);
    expect(c.ServiceController.ConcurrentServiceSyncs).toBe(1);
    expect(c.EndpointSliceController.MaxEndpointsPerSlice).toBe(100);
    expect(c.PersistentVolumeBinderController.VolumeHostAllowLocalLoopback).toBe(true);
    expect(c.PersistentVolumeBinderController.VolumeConfiguration.EnableDynamicProvisioning).toBe(true);
    expect(c.PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration.MinimumTimeoutNFS).toBe(300);
    expect(c.PlatformCloudShared.ClusterName).toBe('kubernetes');
    expect(c.PlatformCloudShared.ConfigureCloudRoutes).toBe(true);
    expect(c.PlatformCloudShared.RouteReconciliationPeriod).toBe('10s');
    expect(c.DeprecatedController).toEqual({});
    expect(parseDuration(c.Generic.MinResyncPeriod)).toBe(12 * 3600 * 1000);
  });

  it('keeps every field a full document sets', () => {
    const full = loadControllerManagerConfiguration(header);
    // Change every scalar so that no value left is a default.
    const mutate = (v: unknown): unknown => {
      if (v === undefined) return undefined;
      if (typeof v === 'number') return v + 3;
      if (typeof v === 'boolean') return !v;
      if (typeof v === 'string') return /^\d/.test(v) && /[smh]$/.test(v) ? '1h0m7s' : `${v}x`;
      if (Array.isArray(v)) return v;
      return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, mutate(x)]));
    };
    const doc = mutate({ ...full, apiVersion: undefined, kind: undefined }) as PlatformControllerManagerConfiguration;
    Object.assign(doc, { apiVersion: full.apiVersion, kind: full.kind });
    const g = doc.Generic;
    g.Address = '127.0.0.1';
    g.Controllers = ['*', '-job', 'namespace'];
    g.LeaderElection.resourceLock = 'endpoints';
    g.LeaderElection.leaseDuration = '30s';
    g.LeaderElection.renewDeadline = '20s';
    g.LeaderElection.retryPeriod = '5s';
    g.LeaderMigration = { leaderName: 'cm-migration', resourceLock: 'leases', controllerLeaders: [{ name: 'route', component: '*' }] };
    doc.EndpointSliceController.MaxEndpointsPerSlice = 500;
    doc.EndpointSliceMirroringController.MirroringMaxEndpointsPerSubset = 900;
    doc.GarbageCollectorController.GCIgnoredResources = [{ Group: '', Resource: 'events' }];
    doc.PersistentVolumeBinderController.VolumeHostCIDRDenylist = ['10.0.0.0/8'];
    const loaded = loadControllerManagerConfiguration(JSON.stringify(doc));
    expect(loaded).toEqual(doc);
    expect(controllerWorkers(loaded)).toEqual({
      job: 8,
      daemonset: 5,
      'ttl-after-finished': 8,
      garbagecollector: 23,
      namespace: 13,
    });
  });

  it('writes durations as Go does', () => {
    const c = loadControllerManagerConfiguration(header + 'NamespaceController:\n  NamespaceSyncPeriod: 300s\n');
    expect(c.NamespaceController.NamespaceSyncPeriod).toBe('5m0s');
  });

  it('names apiVersion and kind when they are wrong or missing', () => {
    expect(() => loadControllerManagerConfiguration('kind: Foo\n')).toThrow(
      '[apiVersion: Required value, kind: Unsupported value: "Foo": supported values: "PlatformControllerManagerConfiguration"]',
    );
    expect(errorsOf(() => loadControllerManagerConfiguration('apiVersion: v1\nkind: PlatformControllerManagerConfiguration\n'))).toEqual([
      'apiVersion: Unsupported value: "v1": supported values: "platformcontrollermanager.config.platform.io/v1alpha1"',
    ]);
  });

  it('rejects text that is not a YAML mapping', () => {
    expect(() => loadControllerManagerConfiguration('a: [')).toThrow(/invalid YAML/);
    expect(() => loadControllerManagerConfiguration('- a')).toThrow('PlatformControllerManagerConfiguration: the document must be a mapping');
    expect(() => loadControllerManagerConfiguration(header + 'kind: again\n')).toThrow(/invalid YAML/);
  });

  it('reports unknown fields by path, as strict decoding does', () => {
    expect(() => loadControllerManagerConfiguration(header + 'JobController:\n  Foo: 1\nBar: true\nGeneric:\n  LeaderElection:\n    LeaseDuration: 1s\n')).toThrow(
      'strict decoding error: unknown field "JobController.Foo", unknown field "Bar", unknown field "Generic.LeaderElection.LeaseDuration"',
    );
    expect(errorsOf(kcm('GarbageCollectorController:\n  GCIgnoredResources:\n  - Group: ""\n    Kind: x\n'))).toEqual([
      'unknown field "GarbageCollectorController.GCIgnoredResources[0].Kind"',
    ]);
  });

  it('reports values of the wrong type', () => {
    expect(
      errorsOf(
        kcm(
          [
            'JobController:',
            '  ConcurrentJobSyncs: "x"',
            'DaemonSetController:',
            '  ConcurrentDaemonSetSyncs: 1.5',
            'TTLAfterFinishedController:',
            '  ConcurrentTTLSyncs: 4294967296',
            'NamespaceController:',
            '  NamespaceSyncPeriod: 5',
            'ResourceQuotaController:',
            '  ResourceQuotaSyncPeriod: 5x',
            'HPAController:',
            '  HorizontalPodAutoscalerTolerance: "a"',
            'GarbageCollectorController:',
            '  EnableGarbageCollector: "yes"',
            '  GCIgnoredResources: {}',
            'Generic:',
            '  Address: 1',
            '  Controllers: ["*", 2]',
            'SAController: 1',
            '',
          ].join('\n'),
        ),
      ),
    ).toEqual([
      'JobController.ConcurrentJobSyncs: Invalid value: "x": must be an integer',
      'DaemonSetController.ConcurrentDaemonSetSyncs: Invalid value: 1.5: must be an integer',
      'TTLAfterFinishedController.ConcurrentTTLSyncs: Invalid value: 4294967296: must be a 32-bit integer',
      'NamespaceController.NamespaceSyncPeriod: Invalid value: 5: must be a duration string such as "5m0s"',
      'ResourceQuotaController.ResourceQuotaSyncPeriod: Invalid value: "5x": time: unknown unit "x" in duration "5x"',
      'HPAController.HorizontalPodAutoscalerTolerance: Invalid value: "a": must be a number',
      'GarbageCollectorController.EnableGarbageCollector: Invalid value: "yes": must be a boolean',
      'GarbageCollectorController.GCIgnoredResources: Invalid value: {}: must be a list',
      'Generic.Address: Invalid value: 1: must be a string',
      'Generic.Controllers[1]: Invalid value: 2: must be a string',
      'SAController: Invalid value: 1: must be an object',
    ]);
  });

  it('treats null as unset', () => {
    const c = loadControllerManagerConfiguration(header + 'JobController:\n  ConcurrentJobSyncs:\nGeneric:\n');
    expect(c.JobController.ConcurrentJobSyncs).toBe(5);
  });

  it('requires Concurrent*Syncs greater than 0', () => {
    expect(errorsOf(kcm('JobController:\n  ConcurrentJobSyncs: -1\nNamespaceController:\n  ConcurrentNamespaceSyncs: -2\n'))).toEqual([
      'JobController.ConcurrentJobSyncs: Invalid value: -1: must be greater than 0',
      'NamespaceController.ConcurrentNamespaceSyncs: Invalid value: -2: must be greater than 0',
    ]);
    // ConcurrentTTLSyncs is defaulted when not positive, as Kubernetes does.
    expect(loadControllerManagerConfiguration(header + 'TTLAfterFinishedController:\n  ConcurrentTTLSyncs: -1\n').TTLAfterFinishedController.ConcurrentTTLSyncs).toBe(5);
  });

  it('bounds the EndpointSlice controllers', () => {
    expect(
      errorsOf(
        kcm(
          'EndpointSliceController:\n  ConcurrentServiceEndpointSyncs: 51\n  MaxEndpointsPerSlice: -1\nEndpointSliceMirroringController:\n  MirroringMaxEndpointsPerSubset: 1001\n',
        ),
      ),
    ).toEqual([
      'EndpointSliceController.ConcurrentServiceEndpointSyncs: Invalid value: 51: must not be more than 50',
      'EndpointSliceController.MaxEndpointsPerSlice: Invalid value: -1: must not be less than 1',
      'EndpointSliceMirroringController.MirroringMaxEndpointsPerSubset: Invalid value: 1001: must not be more than 1000',
    ]);
  });

  it('validates leader election', () => {
    const le = (body: string) => kcm(`Generic:\n  LeaderElection:\n${body}`);
    expect(errorsOf(le('    leaseDuration: 10s\n    renewDeadline: 10s\n'))).toEqual([
      'Generic.LeaderElection.leaseDuration: Invalid value: "10s": LeaseDuration must be greater than RenewDeadline',
    ]);
    expect(errorsOf(le('    renewDeadline: 2s\n    retryPeriod: 2s\n'))).toEqual([
      'Generic.LeaderElection.renewDeadline: Invalid value: "2s": renewDeadline must be greater than retryPeriod*JitterFactor',
    ]);
    expect(errorsOf(le('    leaseDuration: -1s\n    resourceLock: configmaps\n'))).toEqual([
      'Generic.LeaderElection.leaseDuration: Invalid value: "-1s": must be greater than zero',
      'Generic.LeaderElection.leaseDuration: Invalid value: "-1s": LeaseDuration must be greater than RenewDeadline',
      'Generic.LeaderElection.resourceLock: Unsupported value: "configmaps": supported values: "leases", "endpoints"',
    ]);
    // Nothing is checked when leader election is off.
    expect(loadControllerManagerConfiguration(header + 'Generic:\n  LeaderElection:\n    leaderElect: false\n    leaseDuration: 1s\n').Generic.LeaderElection.leaderElect).toBe(false);
  });

  it('validates Controllers entries', () => {
    expect(errorsOf(kcm('Generic:\n  Controllers: ["*", "-job", "Job", "-*", "--x", ""]\n'))).toEqual([
      `Generic.Controllers[2]: Invalid value: "Job": must be '*', a name, or a name prefixed with '-'`,
      `Generic.Controllers[3]: Invalid value: "-*": must be '*', a name, or a name prefixed with '-'`,
      `Generic.Controllers[4]: Invalid value: "--x": must be '*', a name, or a name prefixed with '-'`,
      `Generic.Controllers[5]: Invalid value: "": must be '*', a name, or a name prefixed with '-'`,
    ]);
    expect(
      errorsOf(() => loadControllerManagerConfiguration(header + 'Generic:\n  Controllers: ["-jobs"]\n', { knownControllers: ['job'] })),
    ).toEqual(['Generic.Controllers[0]: Invalid value: "-jobs": "jobs" is not in the list of known controllers']);
  });

  it('validates the embedded leader migration only when enabled', () => {
    expect(loadControllerManagerConfiguration(header + 'Generic:\n  LeaderMigration:\n    resourceLock: x\n').Generic.LeaderMigration.resourceLock).toBe('x');
    expect(
      errorsOf(kcm('Generic:\n  LeaderMigrationEnabled: true\n  LeaderMigration:\n    controllerLeaders:\n    - name: route\n')),
    ).toEqual([
      'Generic.LeaderMigration.leaderName: Required value',
      'Generic.LeaderMigration.controllerLeaders[0].component: Required value',
    ]);
  });

  it('validates Port', () => {
    expect(errorsOf(kcm('Generic:\n  Port: 70000\n'))).toEqual(['Generic.Port: Invalid value: 70000: must be between 0 and 65535, inclusive']);
  });
});

describe('loadLeaderMigrationConfiguration', () => {
  const lmHeader = 'apiVersion: controllermanager.config.platform.io/v1alpha1\nkind: LeaderMigrationConfiguration\n';

  it('loads and defaults resourceLock', () => {
    const lm = loadLeaderMigrationConfiguration(
      lmHeader + 'leaderName: cloud-provider-extraction-migration\ncontrollerLeaders:\n- name: route\n  component: "*"\n- name: service\n  component: cloud-controller-manager\n',
    );
    expect(lm).toEqual({
      apiVersion: 'controllermanager.config.platform.io/v1alpha1',
      kind: 'LeaderMigrationConfiguration',
      leaderName: 'cloud-provider-extraction-migration',
      resourceLock: 'leases',
      controllerLeaders: [
        { name: 'route', component: '*' },
        { name: 'service', component: 'cloud-controller-manager' },
      ],
    });
  });

  it('reports its errors', () => {
    expect(errorsOf(() => loadLeaderMigrationConfiguration(lmHeader + 'resourceLock: configmaps\ncontrollerLeaders:\n- {}\n'))).toEqual([
      'leaderName: Required value',
      'resourceLock: Unsupported value: "configmaps": supported values: "leases", "endpoints"',
      'controllerLeaders[0].component: Required value',
      'controllerLeaders[0].name: Required value',
    ]);
    expect(errorsOf(() => loadLeaderMigrationConfiguration(lmHeader + 'leaderName: x\nLeaderName: y\n'))).toEqual(['unknown field "LeaderName"']);
    expect(() => loadLeaderMigrationConfiguration(header)).toThrow(
      '[apiVersion: Unsupported value: "platformcontrollermanager.config.platform.io/v1alpha1": supported values: "controllermanager.config.platform.io/v1alpha1", kind: Unsupported value: "PlatformControllerManagerConfiguration": supported values: "LeaderMigrationConfiguration"]',
    );
  });
});

describe('loadCloudControllerManagerConfiguration', () => {
  const ccmHeader = 'apiVersion: cloudcontrollermanager.config.platform.io/v1alpha1\nkind: CloudControllerManagerConfiguration\n';

  it('defaults an empty document', () => {
    const c = loadCloudControllerManagerConfiguration(ccmHeader);
    expect(c.NodeStatusUpdateFrequency).toBe('5m0s');
    expect(c.NodeController).toEqual({ ConcurrentNodeSyncs: 1 });
    expect(c.ServiceController).toEqual({ ConcurrentServiceSyncs: 1 });
    expect(c.Webhook).toEqual({ Webhooks: [] });
    expect(c.Generic.LeaderElection.resourceName).toBe('cloud-controller-manager');
    expect(c.Generic.ClientConnection.qps).toBe(20);
    expect(c.KubeCloudShared).toMatchObject({ NodeMonitorPeriod: '5s', ClusterName: 'kubernetes', ConfigureCloudRoutes: true });
  });

  it('loads and validates a document', () => {
    const c = loadCloudControllerManagerConfiguration(
      ccmHeader +
        'KubeCloudShared:\n  CloudProvider:\n    Name: external\n    CloudConfigFile: /etc/cloud.conf\n  ConfigureCloudRoutes: false\n  NodeSyncPeriod: 1m\nWebhook:\n  Webhooks: ["*", "-cloud-node-lifecycle"]\nServiceController:\n  ConcurrentServiceSyncs: 4\n',
    );
    expect(c.KubeCloudShared.CloudProvider).toEqual({ Name: 'external', CloudConfigFile: '/etc/cloud.conf' });
    expect(c.KubeCloudShared.ConfigureCloudRoutes).toBe(false);
    expect(c.KubeCloudShared.NodeSyncPeriod).toBe('1m0s');
    expect(c.Webhook.Webhooks).toEqual(['*', '-cloud-node-lifecycle']);
    expect(c.ServiceController.ConcurrentServiceSyncs).toBe(4);
    expect(
      errorsOf(() => loadCloudControllerManagerConfiguration(ccmHeader + 'NodeController:\n  ConcurrentNodeSyncs: -1\nWebhook:\n  Webhooks: ["-"]\n')),
    ).toEqual([
      'NodeController.ConcurrentNodeSyncs: Invalid value: -1: must be greater than 0',
      `Webhook.Webhooks[0]: Invalid value: "-": must be '*', a name, or a name prefixed with '-'`,
    ]);
    expect(errorsOf(() => loadCloudControllerManagerConfiguration(ccmHeader + 'PlatformCloudShared: {}\n'))).toEqual([
      'unknown field "PlatformCloudShared"',
    ]);
  });
});
