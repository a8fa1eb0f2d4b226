// Types of the controller-manager configuration documents (v1alpha1). Field names are those of the
// documents; a Duration is a Go duration string ("5m0s"), read with parseDuration.

export type Duration = string;

export const PlatformControllerManagerAPIVersion = 'platformcontrollermanager.config.platform.io/v1alpha1';
export const CloudControllerManagerAPIVersion = 'cloudcontrollermanager.config.platform.io/v1alpha1';
export const ControllerManagerAPIVersion = 'controllermanager.config.platform.io/v1alpha1';

// ClientConnectionConfiguration, LeaderElectionConfiguration and DebuggingConfiguration are
// component-base's (k8s.io/component-base/config/v1alpha1), with its lower-case field names.
export interface ClientConnectionConfiguration {
  kubeconfig: string;
  acceptContentTypes: string;
  contentType: string;
  qps: number;
  burst: number;
}

export interface LeaderElectionConfiguration {
  leaderElect: boolean;
  leaseDuration: Duration;
  renewDeadline: Duration;
  retryPeriod: Duration;
  resourceLock: string;
  resourceName: string;
  resourceNamespace: string;
}

export interface DebuggingConfiguration {
  enableProfiling: boolean;
  enableContentionProfiling: boolean;
}

export interface ControllerLeaderConfiguration {
  name: string;
  component: string;
}

export interface LeaderMigrationConfiguration {
  apiVersion?: string;
  kind?: string;
  leaderName: string;
  resourceLock: string;
  controllerLeaders: ControllerLeaderConfiguration[];
}

export interface GenericControllerManagerConfiguration {
  Port: number;
  Address: string;
  MinResyncPeriod: Duration;
  ClientConnection: ClientConnectionConfiguration;
  ControllerStartInterval: Duration;
  LeaderElection: LeaderElectionConfiguration;
  Controllers: string[];
  Debugging: DebuggingConfiguration;
  LeaderMigrationEnabled: boolean;
  LeaderMigration: LeaderMigrationConfiguration;
}

export interface CloudProviderConfiguration {
  Name: string;
  CloudConfigFile: string;
}

export interface PlatformCloudSharedConfiguration {
  CloudProvider: CloudProviderConfiguration;
  ExternalCloudVolumePlugin: string;
  UseServiceAccountCredentials: boolean;
  AllowUntaggedCloud: boolean;
  RouteReconciliationPeriod: Duration;
  NodeMonitorPeriod: Duration;
  ClusterName: string;
  ClusterCIDR: string;
  AllocateNodeCIDRs: boolean;
  CIDRAllocatorType: string;
  ConfigureCloudRoutes: boolean;
  NodeSyncPeriod: Duration;
}

export interface AttachDetachControllerConfiguration {
  DisableAttachDetachReconcilerSync: boolean;
  ReconcilerSyncLoopPeriod: Duration;
}

export interface CSRSigningConfiguration {
  CertFile: string;
  KeyFile: string;
}

export interface CSRSigningControllerConfiguration {
  ClusterSigningCertFile: string;
  ClusterSigningKeyFile: string;
  NodeAgentServingSignerConfiguration: CSRSigningConfiguration;
  NodeAgentClientSignerConfiguration: CSRSigningConfiguration;
  PlatformAPIServerClientSignerConfiguration: CSRSigningConfiguration;
  LegacyUnknownSignerConfiguration: CSRSigningConfiguration;
  ClusterSigningDuration: Duration;
}

export interface CronJobControllerConfiguration {
  ConcurrentCronJobSyncs: number;
}

export interface DaemonSetControllerConfiguration {
  ConcurrentDaemonSetSyncs: number;
}

export interface DeploymentControllerConfiguration {
  ConcurrentDeploymentSyncs: number;
}

// DeprecatedControllerConfiguration has no fields left.
export type DeprecatedControllerConfiguration = Record<string, never>;

export interface EndpointControllerConfiguration {
  ConcurrentEndpointSyncs: number;
  EndpointUpdatesBatchPeriod: Duration;
}

export interface EndpointSliceControllerConfiguration {
  ConcurrentServiceEndpointSyncs: number;
  MaxEndpointsPerSlice: number;
  EndpointUpdatesBatchPeriod: Duration;
}

export interface EndpointSliceMirroringControllerConfiguration {
  MirroringConcurrentServiceEndpointSyncs: number;
  MirroringMaxEndpointsPerSubset: number;
  MirroringEndpointUpdatesBatchPeriod: Duration;
}

export interface EphemeralVolumeControllerConfiguration {
  ConcurrentEphemeralVolumeSyncs: number;
}

export interface GroupResource {
  Group: string;
  Resource: string;
}

export interface GarbageCollectorControllerConfiguration {
  EnableGarbageCollector: boolean;
  ConcurrentGCSyncs: number;
  GCIgnoredResources: GroupResource[];
}

export interface HPAControllerConfiguration {
  ConcurrentHorizontalPodAutoscalerSyncs: number;
  HorizontalPodAutoscalerSyncPeriod: Duration;
  HorizontalPodAutoscalerUpscaleForbiddenWindow: Duration;
  HorizontalPodAutoscalerDownscaleStabilizationWindow: Duration;
  HorizontalPodAutoscalerDownscaleForbiddenWindow: Duration;
  HorizontalPodAutoscalerTolerance: number;
  HorizontalPodAutoscalerCPUInitializationPeriod: Duration;
  HorizontalPodAutoscalerInitialReadinessDelay: Duration;
}

export interface JobControllerConfiguration {
  ConcurrentJobSyncs: number;
}

export interface NamespaceControllerConfiguration {
  NamespaceSyncPeriod: Duration;
  ConcurrentNamespaceSyncs: number;
}

export interface NodeIPAMControllerConfiguration {
  ServiceCIDR: string;
  SecondaryServiceCIDR: string;
  NodeCIDRMaskSize: number;
  NodeCIDRMaskSizeIPv4: number;
  NodeCIDRMaskSizeIPv6: number;
}

export interface NodeLifecycleControllerConfiguration {
  NodeEvictionRate: number;
  SecondaryNodeEvictionRate: number;
  NodeStartupGracePeriod: Duration;
  NodeMonitorGracePeriod: Duration;
  PodEvictionTimeout: Duration;
  LargeClusterSizeThreshold: number;
  UnhealthyZoneThreshold: number;
}

export interface PersistentVolumeRecyclerConfiguration {
  MaximumRetry: number;
  MinimumTimeoutNFS: number;
  PodTemplateFilePathNFS: string;
  IncrementTimeoutNFS: number;
  PodTemplateFilePathHostPath: string;
  MinimumTimeoutHostPath: number;
  IncrementTimeoutHostPath: number;
}

export interface VolumeConfiguration {
  EnableHostPathProvisioning: boolean;
  EnableDynamicProvisioning: boolean;
  PersistentVolumeRecyclerConfiguration: PersistentVolumeRecyclerConfiguration;
  FlexVolumePluginDir: string;
}

export interface PersistentVolumeBinderControllerConfiguration {
  PVClaimBinderSyncPeriod: Duration;
  VolumeConfiguration: VolumeConfiguration;
  VolumeHostCIDRDenylist: string[];
  VolumeHostAllowLocalLoopback: boolean;
}

export interface PodGCControllerConfiguration {
  TerminatedPodGCThreshold: number;
}

export interface ReplicaSetControllerConfiguration {
  ConcurrentRSSyncs: number;
}

export interface ReplicationControllerConfiguration {
  ConcurrentRCSyncs: number;
}

export interface ResourceQuotaControllerConfiguration {
  ResourceQuotaSyncPeriod: Duration;
  ConcurrentResourceQuotaSyncs: number;
}

export interface SAControllerConfiguration {
  ServiceAccountKeyFile: string;
  ConcurrentSATokenSyncs: number;
  RootCAFile: string;
}

export interface StatefulSetControllerConfiguration {
  ConcurrentStatefulSetSyncs: number;
}

export interface TTLAfterFinishedControllerConfiguration {
  ConcurrentTTLSyncs: number;
}

export interface NodeControllerConfiguration {
  ConcurrentNodeSyncs: number;
}

export interface ServiceControllerConfiguration {
  ConcurrentServiceSyncs: number;
}

export interface WebhookConfiguration {
  Webhooks: string[];
}

export interface PlatformControllerManagerConfiguration {
  apiVersion: typeof PlatformControllerManagerAPIVersion;
  kind: 'PlatformControllerManagerConfiguration';
  Generic: GenericControllerManagerConfiguration;
  PlatformCloudShared: PlatformCloudSharedConfiguration;
  AttachDetachController: AttachDetachControllerConfiguration;
  CSRSigningController: CSRSigningControllerConfiguration;
  DaemonSetController: DaemonSetControllerConfiguration;
  DeploymentController: DeploymentControllerConfiguration;
  StatefulSetController: StatefulSetControllerConfiguration;
  DeprecatedController: DeprecatedControllerConfiguration;
  EndpointController: EndpointControllerConfiguration;
  EndpointSliceController: EndpointSliceControllerConfiguration;
  EndpointSliceMirroringController: EndpointSliceMirroringControllerConfiguration;
  EphemeralVolumeController: EphemeralVolumeControllerConfiguration;
  GarbageCollectorController: GarbageCollectorControllerConfiguration;
  HPAController: HPAControllerConfiguration;
  JobController: JobControllerConfiguration;
  CronJobController: CronJobControllerConfiguration;
  NamespaceController: NamespaceControllerConfiguration;
  NodeIPAMController: NodeIPAMControllerConfiguration;
  NodeLifecycleController: NodeLifecycleControllerConfiguration;
  PersistentVolumeBinderController: PersistentVolumeBinderControllerConfiguration;
  PodGCController: PodGCControllerConfiguration;
  ReplicaSetController: ReplicaSetControllerConfiguration;
  ReplicationController: ReplicationControllerConfiguration;
  ResourceQuotaController: ResourceQuotaControllerConfiguration;
  SAController: SAControllerConfiguration;
  ServiceController: ServiceControllerConfiguration;
  TTLAfterFinishedController: TTLAfterFinishedControllerConfiguration;
}

export interface CloudControllerManagerConfiguration {
  apiVersion: typeof CloudControllerManagerAPIVersion;
  kind: 'CloudControllerManagerConfiguration';
  Generic: GenericControllerManagerConfiguration;
  KubeCloudShared: PlatformCloudSharedConfiguration;
  NodeController: NodeControllerConfiguration;
  ServiceController: ServiceControllerConfiguration;
  NodeStatusUpdateFrequency: Duration;
  Webhook: WebhookConfiguration;
}
