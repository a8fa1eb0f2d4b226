// schema describes each configuration type as data: its fields, their kinds, and Kubernetes'
// default for each (from the SetDefaults_*/RecommendedDefault* functions of kube-controller-manager,
// k8s.io/controller-manager, k8s.io/cloud-provider and component-base, config/v1alpha1).
// decode.ts reads documents against it; defaults.ts fills what a document leaves unset.

export type Schema =
  | { kind: 'int32'; default?: number; defaultIfNonPositive?: boolean }
  | { kind: 'float'; default?: number }
  | { kind: 'string'; default?: string }
  // bool defaults are *bool defaults: applied only when the field is absent.
  | { kind: 'bool'; default?: boolean }
  | { kind: 'duration'; default?: string }
  | { kind: 'list'; of: Schema; default?: readonly unknown[] }
  | { kind: 'struct'; fields: Readonly<Record<string, Schema>> };

export type StructSchema = Extract<Schema, { kind: 'struct' }>;

const int32 = (def?: number): Schema => ({ kind: 'int32', default: def });
const float = (def?: number): Schema => ({ kind: 'float', default: def });
const str = (def?: string): Schema => ({ kind: 'string', default: def });
const bool = (def?: boolean): Schema => ({ kind: 'bool', default: def });
const duration = (def?: string): Schema => ({ kind: 'duration', default: def });
const list = (of: Schema, def?: readonly unknown[]): Schema => ({ kind: 'list', of, default: def });
const struct = (fields: Record<string, Schema>): StructSchema => ({ kind: 'struct', fields });

// typeMeta is the inline metav1.TypeMeta of a top-level kind.
const typeMeta = { apiVersion: str(), kind: str() };

export const clientConnectionSchema = struct({
  kubeconfig: str(),
  acceptContentTypes: str(),
  contentType: str('application/vnd.kubernetes.protobuf'),
  // 20 and 30 are the controller managers' overrides of component-base's 50 and 100.
  qps: float(20),
  burst: int32(30),
});

// leaderElectionSchema: resourceName and resourceNamespace are set by the controller managers'
// options in Kubernetes rather than by defaulting; Plinth defaults them here so that a document
// alone is complete. The controller manager's Lease keeps Kubernetes' name, kube-controller-manager,
// which its bootstrap role system:kube-controller-manager may update.
const leaderElectionSchema = (resourceName: string) =>
  struct({
    leaderElect: bool(true),
    leaseDuration: duration('15s'),
    renewDeadline: duration('10s'),
    retryPeriod: duration('2s'),
    resourceLock: str('leases'),
    resourceName: str(resourceName),
    resourceNamespace: str('kube-system'),
  });

export const leaderMigrationSchema = struct({
  ...typeMeta,
  leaderName: str(),
  resourceLock: str('leases'),
  controllerLeaders: list(struct({ name: str(), component: str() })),
});

const genericSchema = (resourceName: string) =>
  struct({
    Port: int32(),
    Address: str('0.0.0.0'),
    MinResyncPeriod: duration('12h'),
    ClientConnection: clientConnectionSchema,
    ControllerStartInterval: duration('0s'),
    LeaderElection: leaderElectionSchema(resourceName),
    Controllers: list(str(), ['*']),
    Debugging: struct({ enableProfiling: bool(true), enableContentionProfiling: bool() }),
    LeaderMigrationEnabled: bool(),
    LeaderMigration: leaderMigrationSchema,
  });

const cloudSharedSchema = struct({
  CloudProvider: struct({ Name: str(), CloudConfigFile: str() }),
  ExternalCloudVolumePlugin: str(),
  UseServiceAccountCredentials: bool(),
  AllowUntaggedCloud: bool(),
  RouteReconciliationPeriod: duration('10s'),
  NodeMonitorPeriod: duration('5s'),
  ClusterName: str('kubernetes'),
  ClusterCIDR: str(),
  AllocateNodeCIDRs: bool(),
  CIDRAllocatorType: str(),
  ConfigureCloudRoutes: bool(true),
  NodeSyncPeriod: duration(),
});

const csrSigning = struct({ CertFile: str(), KeyFile: str() });

const serviceControllerSchema = struct({ ConcurrentServiceSyncs: int32(1) });

export const platformControllerManagerSchema = struct({
  ...typeMeta,
  Generic: genericSchema('kube-controller-manager'),
  PlatformCloudShared: cloudSharedSchema,
  AttachDetachController: struct({
    DisableAttachDetachReconcilerSync: bool(),
    ReconcilerSyncLoopPeriod: duration('1m'),
  }),
  CSRSigningController: struct({
    ClusterSigningCertFile: str(),
    ClusterSigningKeyFile: str(),
    NodeAgentServingSignerConfiguration: csrSigning,
    NodeAgentClientSignerConfiguration: csrSigning,
    PlatformAPIServerClientSignerConfiguration: csrSigning,
    LegacyUnknownSignerConfiguration: csrSigning,
    ClusterSigningDuration: duration('8760h'),
  }),
  DaemonSetController: struct({ ConcurrentDaemonSetSyncs: int32(2) }),
  DeploymentController: struct({ ConcurrentDeploymentSyncs: int32(5) }),
  StatefulSetController: struct({ ConcurrentStatefulSetSyncs: int32(5) }),
  DeprecatedController: struct({}),
  EndpointController: struct({ ConcurrentEndpointSyncs: int32(5), EndpointUpdatesBatchPeriod: duration() }),
  EndpointSliceController: struct({
    ConcurrentServiceEndpointSyncs: int32(5),
    MaxEndpointsPerSlice: int32(100),
    EndpointUpdatesBatchPeriod: duration(),
  }),
  EndpointSliceMirroringController: struct({
    MirroringConcurrentServiceEndpointSyncs: int32(5),
    MirroringMaxEndpointsPerSubset: int32(1000),
    MirroringEndpointUpdatesBatchPeriod: duration(),
  }),
  EphemeralVolumeController: struct({ ConcurrentEphemeralVolumeSyncs: int32(5) }),
  GarbageCollectorController: struct({
    EnableGarbageCollector: bool(true),
    ConcurrentGCSyncs: int32(20),
    GCIgnoredResources: list(struct({ Group: str(), Resource: str() })),
  }),
  HPAController: struct({
    ConcurrentHorizontalPodAutoscalerSyncs: int32(5),
    HorizontalPodAutoscalerSyncPeriod: duration('15s'),
    HorizontalPodAutoscalerUpscaleForbiddenWindow: duration('3m'),
    HorizontalPodAutoscalerDownscaleStabilizationWindow: duration('5m'),
    HorizontalPodAutoscalerDownscaleForbiddenWindow: duration('5m'),
    HorizontalPodAutoscalerTolerance: float(0.1),
    HorizontalPodAutoscalerCPUInitializationPeriod: duration('5m'),
    HorizontalPodAutoscalerInitialReadinessDelay: duration('30s'),
  }),
  JobController: struct({ ConcurrentJobSyncs: int32(5) }),
  CronJobController: struct({ ConcurrentCronJobSyncs: int32(5) }),
  NamespaceController: struct({ NamespaceSyncPeriod: duration('5m'), ConcurrentNamespaceSyncs: int32(10) }),
  // NodeIPAMController mask sizes are left to the controller, which picks them per IP family.
  NodeIPAMController: struct({
    ServiceCIDR: str(),
    SecondaryServiceCIDR: str(),
    NodeCIDRMaskSize: int32(),
    NodeCIDRMaskSizeIPv4: int32(),
    NodeCIDRMaskSizeIPv6: int32(),
  }),
  NodeLifecycleController: struct({
    NodeEvictionRate: float(),
    SecondaryNodeEvictionRate: float(),
    NodeStartupGracePeriod: duration('1m'),
    NodeMonitorGracePeriod: duration('40s'),
    PodEvictionTimeout: duration('5m'),
    LargeClusterSizeThreshold: int32(),
    UnhealthyZoneThreshold: float(),
  }),
  PersistentVolumeBinderController: struct({
    PVClaimBinderSyncPeriod: duration('15s'),
    VolumeConfiguration: struct({
      EnableHostPathProvisioning: bool(false),
      EnableDynamicProvisioning: bool(true),
      PersistentVolumeRecyclerConfiguration: struct({
        MaximumRetry: int32(3),
        MinimumTimeoutNFS: int32(300),
        PodTemplateFilePathNFS: str(),
        IncrementTimeoutNFS: int32(30),
        PodTemplateFilePathHostPath: str(),
        MinimumTimeoutHostPath: int32(60),
        IncrementTimeoutHostPath: int32(30),
      }),
      FlexVolumePluginDir: str('/usr/libexec/kubernetes/kubelet-plugins/volume/exec/'),
    }),
    VolumeHostCIDRDenylist: list(str()),
    VolumeHostAllowLocalLoopback: bool(true),
  }),
  PodGCController: struct({ TerminatedPodGCThreshold: int32(12500) }),
  ReplicaSetController: struct({ ConcurrentRSSyncs: int32(5) }),
  ReplicationController: struct({ ConcurrentRCSyncs: int32(5) }),
  ResourceQuotaController: struct({ ResourceQuotaSyncPeriod: duration('5m'), ConcurrentResourceQuotaSyncs: int32(5) }),
  SAController: struct({ ServiceAccountKeyFile: str(), ConcurrentSATokenSyncs: int32(5), RootCAFile: str() }),
  ServiceController: serviceControllerSchema,
  // ConcurrentTTLSyncs is defaulted when <= 0, not only when 0, as Kubernetes does.
  TTLAfterFinishedController: struct({ ConcurrentTTLSyncs: { kind: 'int32', default: 5, defaultIfNonPositive: true } }),
});

export const cloudControllerManagerSchema = struct({
  ...typeMeta,
  Generic: genericSchema('cloud-controller-manager'),
  KubeCloudShared: cloudSharedSchema,
  NodeController: struct({ ConcurrentNodeSyncs: int32(1) }),
  ServiceController: serviceControllerSchema,
  NodeStatusUpdateFrequency: duration('5m'),
  Webhook: struct({ Webhooks: list(str()) }),
});
