// Schemas of the core (v1) types shared by several kinds, with every field of Kubernetes 1.28:
// PodSpec and its nested types, PodTemplateSpec, PodStatus, Toleration, NodeSpec and NodeStatus.
// List and merge markers follow the Go struct tags of k8s.io/api/core/v1 (v1.28): patchMergeKey
// and patchStrategy where the tags have them, listType where a +listType marker exists.
import { s, Schema } from '../schema';
import { labelSelectorSchema, objectMetaSchema } from './meta';

type Props = Record<string, Schema>;

const ref = (name: string): string => `io.k8s.api.core.v1.${name}`;

function obj(name: string, properties: Props, options: Partial<Schema> = {}): Schema {
  return s.object(properties, { ref: ref(name), ...options });
}

// mergeList is a list merged by key in strategic merge patch, without a +listType marker.
function mergeList(items: Schema, key: string, strategy = 'merge'): Schema {
  return s.array(items, { patchMergeKey: key, patchStrategy: strategy });
}

const strings = (): Schema => s.list(s.string());
const plainStrings = (): Schema => s.array(s.string());
const resourceList = (): Schema => s.map(s.quantity());

export const localObjectReferenceSchema = obj('LocalObjectReference', { name: s.string() }, { mapType: 'atomic' });
export const secretReferenceSchema = obj('SecretReference', { name: s.string(), namespace: s.string() }, { mapType: 'atomic' });
export const objectReferenceSchema = obj(
  'ObjectReference',
  {
    kind: s.string(),
    namespace: s.string(),
    name: s.string(),
    uid: s.uid(),
    apiVersion: s.string(),
    resourceVersion: s.string(),
    fieldPath: s.string(),
  },
  { mapType: 'atomic' },
);

// Selectors of env and downward API values.
export const objectFieldSelectorSchema = obj('ObjectFieldSelector', { apiVersion: s.string(), fieldPath: s.string() }, { required: ['fieldPath'], mapType: 'atomic' });
export const resourceFieldSelectorSchema = obj(
  'ResourceFieldSelector',
  { containerName: s.string(), resource: s.string(), divisor: s.quantity() },
  { required: ['resource'], mapType: 'atomic' },
);
const configMapKeySelectorSchema = obj('ConfigMapKeySelector', { name: s.string(), key: s.string(), optional: s.bool() }, { required: ['key'], mapType: 'atomic' });
const secretKeySelectorSchema = obj('SecretKeySelector', { name: s.string(), key: s.string(), optional: s.bool() }, { required: ['key'], mapType: 'atomic' });

export const envVarSchema = obj(
  'EnvVar',
  {
    name: s.string(),
    value: s.string(),
    valueFrom: obj('EnvVarSource', {
      fieldRef: objectFieldSelectorSchema,
      resourceFieldRef: resourceFieldSelectorSchema,
      configMapKeyRef: configMapKeySelectorSchema,
      secretKeyRef: secretKeySelectorSchema,
    }),
  },
  { required: ['name'] },
);

const envFromSourceSchema = obj('EnvFromSource', {
  prefix: s.string(),
  configMapRef: obj('ConfigMapEnvSource', { name: s.string(), optional: s.bool() }),
  secretRef: obj('SecretEnvSource', { name: s.string(), optional: s.bool() }),
});

export const containerPortSchema = obj(
  'ContainerPort',
  {
    name: s.string(),
    hostPort: s.int32(),
    containerPort: s.int32(),
    protocol: s.enumOf(['SCTP', 'TCP', 'UDP']),
    hostIP: s.string(),
  },
  { required: ['containerPort'] },
);

export const resourceRequirementsSchema = obj('ResourceRequirements', {
  limits: resourceList(),
  requests: resourceList(),
  claims: s.array(obj('ResourceClaim', { name: s.string() }, { required: ['name'] }), { listType: 'map', listMapKeys: ['name'] }),
});

const volumeMountSchema = obj(
  'VolumeMount',
  {
    name: s.string(),
    readOnly: s.bool(),
    mountPath: s.string(),
    subPath: s.string(),
    mountPropagation: s.enumOf(['Bidirectional', 'HostToContainer', 'None']),
    subPathExpr: s.string(),
  },
  { required: ['name', 'mountPath'] },
);

const volumeDeviceSchema = obj('VolumeDevice', { name: s.string(), devicePath: s.string() }, { required: ['name', 'devicePath'] });

const execActionSchema = obj('ExecAction', { command: strings() });
const httpGetActionSchema = obj(
  'HTTPGetAction',
  {
    path: s.string(),
    port: s.intOrString(),
    host: s.string(),
    scheme: s.enumOf(['HTTP', 'HTTPS']),
    httpHeaders: s.list(obj('HTTPHeader', { name: s.string(), value: s.string() }, { required: ['name', 'value'] })),
  },
  { required: ['port'] },
);
const tcpSocketActionSchema = obj('TCPSocketAction', { port: s.intOrString(), host: s.string() }, { required: ['port'] });
const grpcActionSchema = obj('GRPCAction', { port: s.int32(), service: s.string() }, { required: ['port'] });

export const probeSchema = obj('Probe', {
  exec: execActionSchema,
  httpGet: httpGetActionSchema,
  tcpSocket: tcpSocketActionSchema,
  grpc: grpcActionSchema,
  initialDelaySeconds: s.int32(),
  timeoutSeconds: s.int32(),
  periodSeconds: s.int32(),
  successThreshold: s.int32(),
  failureThreshold: s.int32(),
  terminationGracePeriodSeconds: s.int64(),
});

const lifecycleHandlerSchema = obj('LifecycleHandler', { exec: execActionSchema, httpGet: httpGetActionSchema, tcpSocket: tcpSocketActionSchema });
const lifecycleSchema = obj('Lifecycle', { postStart: lifecycleHandlerSchema, preStop: lifecycleHandlerSchema });

const seLinuxOptionsSchema = obj('SELinuxOptions', { user: s.string(), role: s.string(), type: s.string(), level: s.string() });
const windowsOptionsSchema = obj('WindowsSecurityContextOptions', {
  gmsaCredentialSpecName: s.string(),
  gmsaCredentialSpec: s.string(),
  runAsUserName: s.string(),
  hostProcess: s.bool(),
});
const seccompProfileSchema = obj(
  'SeccompProfile',
  { type: s.enumOf(['Localhost', 'RuntimeDefault', 'Unconfined']), localhostProfile: s.string() },
  { required: ['type'] },
);

export const securityContextSchema = obj('SecurityContext', {
  capabilities: obj('Capabilities', { add: strings(), drop: strings() }),
  privileged: s.bool(),
  seLinuxOptions: seLinuxOptionsSchema,
  windowsOptions: windowsOptionsSchema,
  runAsUser: s.int64(),
  runAsGroup: s.int64(),
  runAsNonRoot: s.bool(),
  readOnlyRootFilesystem: s.bool(),
  allowPrivilegeEscalation: s.bool(),
  procMount: s.enumOf(['Default', 'Unmasked']),
  seccompProfile: seccompProfileSchema,
});

export const podSecurityContextSchema = obj('PodSecurityContext', {
  seLinuxOptions: seLinuxOptionsSchema,
  windowsOptions: windowsOptionsSchema,
  runAsUser: s.int64(),
  runAsGroup: s.int64(),
  runAsNonRoot: s.bool(),
  supplementalGroups: s.list(s.int64()),
  fsGroup: s.int64(),
  sysctls: s.list(obj('Sysctl', { name: s.string(), value: s.string() }, { required: ['name', 'value'] })),
  fsGroupChangePolicy: s.enumOf(['Always', 'OnRootMismatch']),
  seccompProfile: seccompProfileSchema,
});

// containerFields are the fields of Container; EphemeralContainer adds targetContainerName.
const containerFields: Props = {
  name: s.string(),
  image: s.string(),
  command: strings(),
  args: strings(),
  workingDir: s.string(),
  ports: s.mapList(containerPortSchema, ['containerPort', 'protocol']),
  envFrom: s.list(envFromSourceSchema),
  env: mergeList(envVarSchema, 'name'),
  resources: resourceRequirementsSchema,
  resizePolicy: s.atomicList(obj('ContainerResizePolicy', { resourceName: s.string(), restartPolicy: s.string() }, { required: ['resourceName', 'restartPolicy'] })),
  restartPolicy: s.string(),
  volumeMounts: mergeList(volumeMountSchema, 'mountPath'),
  volumeDevices: mergeList(volumeDeviceSchema, 'devicePath'),
  livenessProbe: probeSchema,
  readinessProbe: probeSchema,
  startupProbe: probeSchema,
  lifecycle: lifecycleSchema,
  terminationMessagePath: s.string(),
  terminationMessagePolicy: s.enumOf(['FallbackToLogsOnError', 'File']),
  imagePullPolicy: s.enumOf(['Always', 'IfNotPresent', 'Never']),
  securityContext: securityContextSchema,
  stdin: s.bool(),
  stdinOnce: s.bool(),
  tty: s.bool(),
};

export const containerSchema = obj('Container', containerFields, { required: ['name'] });
export const ephemeralContainerSchema = obj('EphemeralContainer', { ...containerFields, targetContainerName: s.string() }, { required: ['name'] });

// Volume sources.
const keyToPathSchema = obj('KeyToPath', { key: s.string(), path: s.string(), mode: s.int32() }, { required: ['key', 'path'] });
const keyToPaths = (): Schema => s.list(keyToPathSchema);
const downwardAPIVolumeFileSchema = obj(
  'DownwardAPIVolumeFile',
  { path: s.string(), fieldRef: objectFieldSelectorSchema, resourceFieldRef: resourceFieldSelectorSchema, mode: s.int32() },
  { required: ['path'] },
);

export const typedLocalObjectReferenceSchema = obj(
  'TypedLocalObjectReference',
  { apiGroup: s.string(), kind: s.string(), name: s.string() },
  { required: ['kind', 'name'], mapType: 'atomic' },
);

export const persistentVolumeClaimSpecSchema = obj('PersistentVolumeClaimSpec', {
  accessModes: strings(),
  selector: labelSelectorSchema,
  resources: resourceRequirementsSchema,
  volumeName: s.string(),
  storageClassName: s.string(),
  volumeMode: s.enumOf(['Block', 'Filesystem']),
  dataSource: typedLocalObjectReferenceSchema,
  dataSourceRef: obj(
    'TypedObjectReference',
    { apiGroup: s.string(), kind: s.string(), name: s.string(), namespace: s.string() },
    { required: ['kind', 'name'] },
  ),
});

export const volumeSourceFields: Props = {
  hostPath: obj('HostPathVolumeSource', { path: s.string(), type: s.enumOf(['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket']) }, { required: ['path'] }),
  emptyDir: obj('EmptyDirVolumeSource', { medium: s.string(), sizeLimit: s.quantity() }),
  gcePersistentDisk: obj(
    'GCEPersistentDiskVolumeSource',
    { pdName: s.string(), fsType: s.string(), partition: s.int32(), readOnly: s.bool() },
    { required: ['pdName'] },
  ),
  awsElasticBlockStore: obj(
    'AWSElasticBlockStoreVolumeSource',
    { volumeID: s.string(), fsType: s.string(), partition: s.int32(), readOnly: s.bool() },
    { required: ['volumeID'] },
  ),
  gitRepo: obj('GitRepoVolumeSource', { repository: s.string(), revision: s.string(), directory: s.string() }, { required: ['repository'] }),
  secret: obj('SecretVolumeSource', { secretName: s.string(), items: keyToPaths(), defaultMode: s.int32(), optional: s.bool() }),
  nfs: obj('NFSVolumeSource', { server: s.string(), path: s.string(), readOnly: s.bool() }, { required: ['server', 'path'] }),
  iscsi: obj(
    'ISCSIVolumeSource',
    {
      targetPortal: s.string(),
      iqn: s.string(),
      lun: s.int32(),
      iscsiInterface: s.string(),
      fsType: s.string(),
      readOnly: s.bool(),
      portals: strings(),
      chapAuthDiscovery: s.bool(),
      chapAuthSession: s.bool(),
      secretRef: localObjectReferenceSchema,
      initiatorName: s.string(),
    },
    { required: ['targetPortal', 'iqn', 'lun'] },
  ),
  glusterfs: obj('GlusterfsVolumeSource', { endpoints: s.string(), path: s.string(), readOnly: s.bool() }, { required: ['endpoints', 'path'] }),
  persistentVolumeClaim: obj('PersistentVolumeClaimVolumeSource', { claimName: s.string(), readOnly: s.bool() }, { required: ['claimName'] }),
  rbd: obj(
    'RBDVolumeSource',
    {
      monitors: strings(),
      image: s.string(),
      fsType: s.string(),
      pool: s.string(),
      user: s.string(),
      keyring: s.string(),
      secretRef: localObjectReferenceSchema,
      readOnly: s.bool(),
    },
    { required: ['monitors', 'image'] },
  ),
  flexVolume: obj(
    'FlexVolumeSource',
    { driver: s.string(), fsType: s.string(), secretRef: localObjectReferenceSchema, readOnly: s.bool(), options: s.stringMap() },
    { required: ['driver'] },
  ),
  cinder: obj(
    'CinderVolumeSource',
    { volumeID: s.string(), fsType: s.string(), readOnly: s.bool(), secretRef: localObjectReferenceSchema },
    { required: ['volumeID'] },
  ),
  cephfs: obj(
    'CephFSVolumeSource',
    { monitors: strings(), path: s.string(), user: s.string(), secretFile: s.string(), secretRef: localObjectReferenceSchema, readOnly: s.bool() },
    { required: ['monitors'] },
  ),
  flocker: obj('FlockerVolumeSource', { datasetName: s.string(), datasetUUID: s.string() }),
  downwardAPI: obj('DownwardAPIVolumeSource', { items: s.list(downwardAPIVolumeFileSchema), defaultMode: s.int32() }),
  fc: obj('FCVolumeSource', { targetWWNs: strings(), lun: s.int32(), fsType: s.string(), readOnly: s.bool(), wwids: strings() }),
  azureFile: obj('AzureFileVolumeSource', { secretName: s.string(), shareName: s.string(), readOnly: s.bool() }, { required: ['secretName', 'shareName'] }),
  configMap: obj('ConfigMapVolumeSource', { name: s.string(), items: keyToPaths(), defaultMode: s.int32(), optional: s.bool() }),
  vsphereVolume: obj(
    'VsphereVirtualDiskVolumeSource',
    { volumePath: s.string(), fsType: s.string(), storagePolicyName: s.string(), storagePolicyID: s.string() },
    { required: ['volumePath'] },
  ),
  quobyte: obj(
    'QuobyteVolumeSource',
    { registry: s.string(), volume: s.string(), readOnly: s.bool(), user: s.string(), group: s.string(), tenant: s.string() },
    { required: ['registry', 'volume'] },
  ),
  azureDisk: obj(
    'AzureDiskVolumeSource',
    { diskName: s.string(), diskURI: s.string(), cachingMode: s.enumOf(['None', 'ReadOnly', 'ReadWrite']), fsType: s.string(), readOnly: s.bool(), kind: s.enumOf(['Dedicated', 'Managed', 'Shared']) },
    { required: ['diskName', 'diskURI'] },
  ),
  photonPersistentDisk: obj('PhotonPersistentDiskVolumeSource', { pdID: s.string(), fsType: s.string() }, { required: ['pdID'] }),
  projected: obj('ProjectedVolumeSource', {
    sources: s.list(
      obj('VolumeProjection', {
        secret: obj('SecretProjection', { name: s.string(), items: keyToPaths(), optional: s.bool() }),
        downwardAPI: obj('DownwardAPIProjection', { items: s.list(downwardAPIVolumeFileSchema) }),
        configMap: obj('ConfigMapProjection', { name: s.string(), items: keyToPaths(), optional: s.bool() }),
        serviceAccountToken: obj(
          'ServiceAccountTokenProjection',
          { audience: s.string(), expirationSeconds: s.int64(), path: s.string() },
          { required: ['path'] },
        ),
      }),
    ),
    defaultMode: s.int32(),
  }),
  portworxVolume: obj('PortworxVolumeSource', { volumeID: s.string(), fsType: s.string(), readOnly: s.bool() }, { required: ['volumeID'] }),
  scaleIO: obj(
    'ScaleIOVolumeSource',
    {
      gateway: s.string(),
      system: s.string(),
      secretRef: localObjectReferenceSchema,
      sslEnabled: s.bool(),
      protectionDomain: s.string(),
      storagePool: s.string(),
      storageMode: s.string(),
      volumeName: s.string(),
      fsType: s.string(),
      readOnly: s.bool(),
    },
    { required: ['gateway', 'system', 'secretRef'] },
  ),
  storageos: obj('StorageOSVolumeSource', {
    volumeName: s.string(),
    volumeNamespace: s.string(),
    fsType: s.string(),
    readOnly: s.bool(),
    secretRef: localObjectReferenceSchema,
  }),
  csi: obj(
    'CSIVolumeSource',
    { driver: s.string(), readOnly: s.bool(), fsType: s.string(), volumeAttributes: s.stringMap(), nodePublishSecretRef: localObjectReferenceSchema },
    { required: ['driver'] },
  ),
  ephemeral: obj('EphemeralVolumeSource', {
    volumeClaimTemplate: obj('PersistentVolumeClaimTemplate', { metadata: objectMetaSchema, spec: persistentVolumeClaimSpecSchema }, { required: ['spec'] }),
  }),
};

export const volumeSchema = obj('Volume', { name: s.string(), ...volumeSourceFields }, { required: ['name'] });

// Scheduling.
const nodeSelectorRequirementSchema = obj(
  'NodeSelectorRequirement',
  { key: s.string(), operator: s.enumOf(['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn']), values: strings() },
  { required: ['key', 'operator'] },
);
export const nodeSelectorTermSchema = obj(
  'NodeSelectorTerm',
  { matchExpressions: s.list(nodeSelectorRequirementSchema), matchFields: s.list(nodeSelectorRequirementSchema) },
  { mapType: 'atomic' },
);
export const nodeSelectorSchema = obj(
  'NodeSelector',
  { nodeSelectorTerms: s.list(nodeSelectorTermSchema) },
  { required: ['nodeSelectorTerms'], mapType: 'atomic' },
);

const podAffinityTermSchema = obj(
  'PodAffinityTerm',
  { labelSelector: labelSelectorSchema, namespaces: strings(), topologyKey: s.string(), namespaceSelector: labelSelectorSchema },
  { required: ['topologyKey'] },
);
const weightedPodAffinityTermSchema = obj(
  'WeightedPodAffinityTerm',
  { weight: s.int32(), podAffinityTerm: podAffinityTermSchema },
  { required: ['weight', 'podAffinityTerm'] },
);

export const affinitySchema = obj('Affinity', {
  nodeAffinity: obj('NodeAffinity', {
    requiredDuringSchedulingIgnoredDuringExecution: nodeSelectorSchema,
    preferredDuringSchedulingIgnoredDuringExecution: s.list(
      obj('PreferredSchedulingTerm', { weight: s.int32(), preference: nodeSelectorTermSchema }, { required: ['weight', 'preference'] }),
    ),
  }),
  podAffinity: obj('PodAffinity', {
    requiredDuringSchedulingIgnoredDuringExecution: s.list(podAffinityTermSchema),
    preferredDuringSchedulingIgnoredDuringExecution: s.list(weightedPodAffinityTermSchema),
  }),
  podAntiAffinity: obj('PodAntiAffinity', {
    requiredDuringSchedulingIgnoredDuringExecution: s.list(podAffinityTermSchema),
    preferredDuringSchedulingIgnoredDuringExecution: s.list(weightedPodAffinityTermSchema),
  }),
});

export const tolerationSchema = obj('Toleration', {
  key: s.string(),
  operator: s.enumOf(['Equal', 'Exists']),
  value: s.string(),
  effect: s.enumOf(['NoExecute', 'NoSchedule', 'PreferNoSchedule']),
  tolerationSeconds: s.int64(),
});

export const topologySpreadConstraintSchema = obj(
  'TopologySpreadConstraint',
  {
    maxSkew: s.int32(),
    topologyKey: s.string(),
    whenUnsatisfiable: s.enumOf(['DoNotSchedule', 'ScheduleAnyway']),
    labelSelector: labelSelectorSchema,
    minDomains: s.int32(),
    nodeAffinityPolicy: s.enumOf(['Honor', 'Ignore']),
    nodeTaintsPolicy: s.enumOf(['Honor', 'Ignore']),
    matchLabelKeys: strings(),
  },
  { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] },
);

export const podSpecSchema = obj(
  'PodSpec',
  {
    volumes: mergeList(volumeSchema, 'name', 'merge,retainKeys'),
    initContainers: mergeList(containerSchema, 'name'),
    containers: mergeList(containerSchema, 'name'),
    ephemeralContainers: mergeList(ephemeralContainerSchema, 'name'),
    restartPolicy: s.enumOf(['Always', 'Never', 'OnFailure']),
    terminationGracePeriodSeconds: s.int64(),
    activeDeadlineSeconds: s.int64(),
    dnsPolicy: s.enumOf(['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None']),
    nodeSelector: { ...s.stringMap(), mapType: 'atomic' },
    serviceAccountName: s.string(),
    serviceAccount: s.string(),
    automountServiceAccountToken: s.bool(),
    nodeName: s.string(),
    hostNetwork: s.bool(),
    hostPID: s.bool(),
    hostIPC: s.bool(),
    shareProcessNamespace: s.bool(),
    securityContext: podSecurityContextSchema,
    imagePullSecrets: mergeList(localObjectReferenceSchema, 'name'),
    hostname: s.string(),
    subdomain: s.string(),
    affinity: affinitySchema,
    schedulerName: s.string(),
    tolerations: s.array(tolerationSchema),
    hostAliases: mergeList(obj('HostAlias', { ip: s.string(), hostnames: plainStrings() }), 'ip'),
    priorityClassName: s.string(),
    priority: s.int32(),
    dnsConfig: obj('PodDNSConfig', {
      nameservers: plainStrings(),
      searches: plainStrings(),
      options: s.array(obj('PodDNSConfigOption', { name: s.string(), value: s.string() })),
    }),
    readinessGates: s.array(obj('PodReadinessGate', { conditionType: s.string() }, { required: ['conditionType'] })),
    runtimeClassName: s.string(),
    enableServiceLinks: s.bool(),
    preemptionPolicy: s.enumOf(['Never', 'PreemptLowerPriority']),
    overhead: resourceList(),
    topologySpreadConstraints: s.mapList(topologySpreadConstraintSchema, ['topologyKey', 'whenUnsatisfiable']),
    setHostnameAsFQDN: s.bool(),
    os: obj('PodOS', { name: s.string() }, { required: ['name'] }),
    hostUsers: s.bool(),
    schedulingGates: s.mapList(obj('PodSchedulingGate', { name: s.string() }, { required: ['name'] }), ['name']),
    resourceClaims: s.mapList(
      obj('PodResourceClaim', {
        name: s.string(),
        source: obj('ClaimSource', { resourceClaimName: s.string(), resourceClaimTemplateName: s.string() }),
      }, { required: ['name'] }),
      ['name'],
      { patchStrategy: 'merge,retainKeys' },
    ),
  },
  { required: ['containers'] },
);

export const podTemplateSpecSchema = obj('PodTemplateSpec', { metadata: objectMetaSchema, spec: podSpecSchema });

// Pod status.
const containerStateSchema = obj('ContainerState', {
  waiting: obj('ContainerStateWaiting', { reason: s.string(), message: s.string() }),
  running: obj('ContainerStateRunning', { startedAt: s.time() }),
  terminated: obj(
    'ContainerStateTerminated',
    {
      exitCode: s.int32(),
      signal: s.int32(),
      reason: s.string(),
      message: s.string(),
      startedAt: s.time(),
      finishedAt: s.time(),
      containerID: s.string(),
    },
    { required: ['exitCode'] },
  ),
});

export const containerStatusSchema = obj(
  'ContainerStatus',
  {
    name: s.string(),
    state: containerStateSchema,
    lastState: containerStateSchema,
    ready: s.bool(),
    restartCount: s.int32(),
    image: s.string(),
    imageID: s.string(),
    containerID: s.string(),
    started: s.bool(),
    allocatedResources: resourceList(),
    resources: resourceRequirementsSchema,
  },
  { required: ['name', 'ready', 'restartCount', 'image', 'imageID'] },
);

export const podConditionSchema = obj(
  'PodCondition',
  {
    type: s.string(),
    status: s.string(),
    lastProbeTime: s.time(),
    lastTransitionTime: s.time(),
    reason: s.string(),
    message: s.string(),
  },
  { required: ['type', 'status'] },
);

export const podStatusSchema = obj('PodStatus', {
  phase: s.enumOf(['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown']),
  conditions: mergeList(podConditionSchema, 'type'),
  message: s.string(),
  reason: s.string(),
  nominatedNodeName: s.string(),
  hostIP: s.string(),
  hostIPs: { ...mergeList(obj('HostIP', { ip: s.string() }), 'ip'), listType: 'atomic' },
  podIP: s.string(),
  podIPs: mergeList(obj('PodIP', { ip: s.string() }), 'ip'),
  startTime: s.time(),
  initContainerStatuses: s.array(containerStatusSchema),
  containerStatuses: s.array(containerStatusSchema),
  qosClass: s.enumOf(['BestEffort', 'Burstable', 'Guaranteed']),
  ephemeralContainerStatuses: s.array(containerStatusSchema),
  resize: s.string(),
  resourceClaimStatuses: s.mapList(
    obj('PodResourceClaimStatus', { name: s.string(), resourceClaimName: s.string() }, { required: ['name'] }),
    ['name'],
    { patchStrategy: 'merge,retainKeys' },
  ),
});

// Node.
export const taintSchema = obj(
  'Taint',
  { key: s.string(), value: s.string(), effect: s.enumOf(['NoExecute', 'NoSchedule', 'PreferNoSchedule']), timeAdded: s.time() },
  { required: ['key', 'effect'] },
);

export const nodeSpecSchema = obj('NodeSpec', {
  podCIDR: s.string(),
  podCIDRs: { ...s.setOf(s.string()), patchStrategy: 'merge' },
  providerID: s.string(),
  unschedulable: s.bool(),
  taints: s.array(taintSchema),
  configSource: obj('NodeConfigSource', {
    configMap: obj(
      'ConfigMapNodeConfigSource',
      { namespace: s.string(), name: s.string(), uid: s.uid(), resourceVersion: s.string(), kubeletConfigKey: s.string() },
      { required: ['namespace', 'name', 'kubeletConfigKey'] },
    ),
  }),
  externalID: s.string(),
});

const nodeConfigSourceRef = (): Schema => nodeSpecSchema.properties?.configSource as Schema;


// nodeSystemInfoFields are NodeSystemInfo's strings, in Go's order: all required, and always
// encoded (the struct is held by value), so a Node's status carries them even when empty.
export const nodeSystemInfoFields = [
  'machineID',
  'systemUUID',
  'bootID',
  'kernelVersion',
  'osImage',
  'containerRuntimeVersion',
  'kubeletVersion',
  'kubeProxyVersion',
  'operatingSystem',
  'architecture',
] as const;
export const nodeStatusSchema = obj('NodeStatus', {
  capacity: resourceList(),
  allocatable: resourceList(),
  phase: s.enumOf(['Pending', 'Running', 'Terminated']),
  conditions: mergeList(
    obj(
      'NodeCondition',
      { type: s.string(), status: s.string(), lastHeartbeatTime: s.time(), lastTransitionTime: s.time(), reason: s.string(), message: s.string() },
      { required: ['type', 'status'] },
    ),
    'type',
  ),
  addresses: mergeList(obj('NodeAddress', { type: s.string(), address: s.string() }, { required: ['type', 'address'] }), 'type'),
  daemonEndpoints: obj('NodeDaemonEndpoints', {
    kubeletEndpoint: obj('DaemonEndpoint', { Port: s.int32() }, { required: ['Port'] }),
  }),
  nodeInfo: obj('NodeSystemInfo', Object.fromEntries(nodeSystemInfoFields.map((f) => [f, s.string()])), { required: [...nodeSystemInfoFields] }),
  images: s.array(obj('ContainerImage', { names: strings(), sizeBytes: s.int64() })),
  volumesInUse: s.array(s.string()),
  volumesAttached: s.array(obj('AttachedVolume', { name: s.string(), devicePath: s.string() }, { required: ['name', 'devicePath'] })),
  config: obj('NodeConfigStatus', {
    assigned: nodeConfigSourceRef(),
    active: nodeConfigSourceRef(),
    lastKnownGood: nodeConfigSourceRef(),
    error: s.string(),
  }),
});
