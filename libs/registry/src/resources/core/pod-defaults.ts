// Defaults of pods and pod templates, after pkg/apis/core/v1/defaults.go (v1.28):
// SetDefaults_PodSpec and the defaults of the nested types (containers, probes, ports, volumes)
// apply wherever a PodSpec appears; SetDefaults_Pod adds what only materializes in a Pod
// (enableServiceLinks, requests from limits, host ports of host-network pods).
type Obj = Record<string, unknown>;

export const defaultTerminationGracePeriodSeconds = 30;
export const defaultSchedulerName = 'default-scheduler';
export const terminationMessagePathDefault = '/dev/termination-log';
// defaultVolumeMode is the 0644 mode of secret, configMap, downwardAPI and projected volumes.
export const defaultVolumeMode = 0o644;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

function setIfUnset(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null || o[key] === '') o[key] = value;
}

// imageTag is the tag parsers.ParseImageName reports: the explicit tag, "latest" when the image
// names neither tag nor digest, and "" when the reference does not parse.
export function imageTag(image: string): string {
  const reference = /^(?:((?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?)\/)?([a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*)*)(?::([\w][\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$/;
  const m = reference.exec(image);
  if (!m) return '';
  // A first component without a dot, colon or "localhost" is a path component, not a domain,
  // and must then be lower case like the rest of the path.
  const [, domain, , tag, digest] = m;
  if (domain && !/[.:]/.test(domain) && domain !== 'localhost' && domain !== domain.toLowerCase()) return '';
  if (image.length > 255 && !digest) return '';
  if (!tag && !digest) return 'latest';
  return tag ?? '';
}

export function defaultContainer(c: Obj): void {
  // resources is a struct held by value in Go: Kubernetes always shows it, {} when empty.
  if (!isObj(c.resources)) c.resources = {};
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  setIfUnset(c, 'terminationMessagePath', terminationMessagePathDefault);
  setIfUnset(c, 'terminationMessagePolicy', 'File');
  for (const port of objects(c.ports)) setIfUnset(port, 'protocol', 'TCP');
  for (const env of objects(c.env)) {
    const from = env.valueFrom;
    if (isObj(from) && isObj(from.fieldRef)) setIfUnset(from.fieldRef, 'apiVersion', 'v1');
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (isObj(c[probe])) defaultProbe(c[probe] as Obj);
  }
  const lifecycle = c.lifecycle;
  if (isObj(lifecycle)) {
    for (const hook of ['postStart', 'preStop']) {
      const handler = lifecycle[hook];
      if (isObj(handler) && isObj(handler.httpGet)) defaultHTTPGetAction(handler.httpGet);
    }
  }
}

function defaultProbe(p: Obj): void {
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
  if (isObj(p.httpGet)) defaultHTTPGetAction(p.httpGet);
}

function defaultHTTPGetAction(a: Obj): void {
  setIfUnset(a, 'path', '/');
  setIfUnset(a, 'scheme', 'HTTP');
}

const volumeSourceNames = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi',
  'ephemeral',
];

export function defaultVolume(v: Obj): void {
  if (!volumeSourceNames.some((name) => v[name] !== undefined && v[name] !== null)) v.emptyDir = {};
  const src = (name: string): Obj | undefined => (isObj(v[name]) ? (v[name] as Obj) : undefined);
  const hostPath = src('hostPath');
  if (hostPath && (hostPath.type === undefined || hostPath.type === null)) hostPath.type = '';
  for (const name of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const s = src(name);
    if (s && (s.defaultMode === undefined || s.defaultMode === null)) s.defaultMode = defaultVolumeMode;
  }
  for (const item of objects(src('downwardAPI')?.items)) defaultDownwardAPIFile(item);
  for (const projection of objects(src('projected')?.sources)) {
    if (isObj(projection.downwardAPI)) for (const item of objects(projection.downwardAPI.items)) defaultDownwardAPIFile(item);
    const token = projection.serviceAccountToken;
    if (isObj(token) && (token.expirationSeconds === undefined || token.expirationSeconds === null)) token.expirationSeconds = 3600;
  }
  const iscsi = src('iscsi');
  if (iscsi) setIfUnset(iscsi, 'iscsiInterface', 'default');
  const rbd = src('rbd');
  if (rbd) {
    setIfUnset(rbd, 'pool', 'rbd');
    setIfUnset(rbd, 'user', 'admin');
    setIfUnset(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const azureDisk = src('azureDisk');
  if (azureDisk) {
    setIfUnset(azureDisk, 'cachingMode', 'ReadWrite');
    setIfUnset(azureDisk, 'kind', 'Shared');
    setIfUnset(azureDisk, 'fsType', 'ext4');
    if (azureDisk.readOnly === undefined || azureDisk.readOnly === null) azureDisk.readOnly = false;
  }
  const scaleIO = src('scaleIO');
  if (scaleIO) {
    setIfUnset(scaleIO, 'storageMode', 'ThinProvisioned');
    setIfUnset(scaleIO, 'fsType', 'xfs');
  }
  const ephemeral = src('ephemeral');
  if (ephemeral && isObj(ephemeral.volumeClaimTemplate) && isObj(ephemeral.volumeClaimTemplate.spec)) {
    setIfUnset(ephemeral.volumeClaimTemplate.spec, 'volumeMode', 'Filesystem');
  }
}

function defaultDownwardAPIFile(item: Obj): void {
  if (isObj(item.fieldRef)) setIfUnset(item.fieldRef, 'apiVersion', 'v1');
}

// defaultPodSpec is SetDefaults_PodSpec with the defaults of everything nested in the spec.
export function defaultPodSpec(spec: Record<string, unknown>): void {
  setIfUnset(spec, 'dnsPolicy', 'ClusterFirst');
  setIfUnset(spec, 'restartPolicy', 'Always');
  if (!isObj(spec.securityContext)) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    spec.terminationGracePeriodSeconds = defaultTerminationGracePeriodSeconds;
  }
  setIfUnset(spec, 'schedulerName', defaultSchedulerName);
  for (const c of objects(spec.initContainers)) defaultContainer(c);
  for (const c of objects(spec.containers)) defaultContainer(c);
  for (const c of objects(spec.ephemeralContainers)) defaultContainer(c);
  for (const v of objects(spec.volumes)) defaultVolume(v);
  mirrorServiceAccount(spec);
}

// mirrorServiceAccount is what the v1 conversion does with the deprecated serviceAccount: it
// stands for serviceAccountName when that is empty, and always shows serviceAccountName.
function mirrorServiceAccount(spec: Obj): void {
  const deprecated = typeof spec.serviceAccount === 'string' ? spec.serviceAccount : '';
  if ((spec.serviceAccountName === undefined || spec.serviceAccountName === null || spec.serviceAccountName === '') && deprecated !== '') {
    spec.serviceAccountName = deprecated;
  }
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '') spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
}

// defaultPodTemplateSpec defaults the spec of a pod template. Its metadata has no defaults, but
// is a Go struct held by value whose creationTimestamp has no omitempty: Kubernetes always
// shows `metadata: {creationTimestamp: null}` at least.
export function defaultPodTemplateSpec(template: Record<string, unknown> | undefined): void {
  if (!isObj(template)) return;
  if (!isObj(template.metadata)) template.metadata = {};
  const metadata = template.metadata as Obj;
  if (metadata.creationTimestamp === undefined) metadata.creationTimestamp = null;
  if (!isObj(template.spec)) template.spec = {};
  defaultPodSpec(template.spec as Obj);
}

// convertPod is what kube-apiserver's v1 → internal → v1 conversion of a Pod changes: a
// negative terminationGracePeriodSeconds becomes 1, status.podIPs follows status.podIP (which
// wins where both are given and differ) and podIP the first of podIPs, a condition's unset
// times are written as Go writes a zero time, null, and container statuses take the Go shape
// (convertContainerStatus).
export function convertPod(pod: Record<string, unknown>): void {
  const spec = pod.spec as Obj;
  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) spec.terminationGracePeriodSeconds = 1;
  if (!isObj(pod.status)) return;
  const status = pod.status;
  const podIP = typeof status.podIP === 'string' ? status.podIP : '';
  const podIPs = objects(status.podIPs);
  if (podIP && (podIPs.length === 0 || podIPs[0].ip !== podIP)) status.podIPs = [{ ip: podIP }];
  else if (!podIP && podIPs.length > 0 && typeof podIPs[0].ip === 'string' && podIPs[0].ip) status.podIP = podIPs[0].ip;
  for (const condition of objects(status.conditions)) {
    condition.lastProbeTime ??= null;
    condition.lastTransitionTime ??= null;
  }
  for (const key of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) objects(status[key]).forEach(convertContainerStatus);
}

// convertContainerStatus writes a v1.ContainerStatus as Go encodes it: its state and lastState
// are structs held by value (`{}` when empty), name, ready, restartCount, image and imageID have
// no omitempty, and the times of a running or terminated state are metav1.Time values (null
// when unset).
function convertContainerStatus(containerStatus: Obj): void {
  containerStatus.name ??= '';
  for (const key of ['state', 'lastState']) {
    if (!isObj(containerStatus[key])) containerStatus[key] = {};
    const state = containerStatus[key] as Obj;
    if (isObj(state.running)) state.running.startedAt ??= null;
    if (isObj(state.terminated)) {
      state.terminated.exitCode ??= 0;
      state.terminated.startedAt ??= null;
      state.terminated.finishedAt ??= null;
    }
  }
  containerStatus.ready ??= false;
  containerStatus.restartCount ??= 0;
  containerStatus.image ??= '';
  containerStatus.imageID ??= '';
}

// defaultPod is SetDefaults_Pod after SetDefaults_PodSpec: requests default to limits, service
// links are enabled, and host-network pods publish their container ports on the host; then
// the conversion's changes (convertPod).
export function defaultPod(pod: Record<string, unknown>): void {
  if (!isObj(pod.spec)) pod.spec = {};
  const spec = pod.spec as Obj;
  convertPod(pod);
  defaultPodSpec(spec);
  for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
    const resources = c.resources;
    if (!isObj(resources) || !isObj(resources.limits)) continue;
    if (!isObj(resources.requests)) resources.requests = {};
    const requests = resources.requests as Obj;
    for (const [name, value] of Object.entries(resources.limits)) if (!(name in requests)) requests[name] = value;
  }
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
      for (const port of objects(c.ports)) if (!port.hostPort) port.hostPort = port.containerPort;
    }
  }
}

// dropDisabledPodSpecFields is podutil.dropDisabledFields for the feature gates of v1.28 that are
// off by default (DynamicResourceAllocation, InPlacePodVerticalScaling, SidecarContainers,
// UserNamespacesSupport): their fields are silently cleared unless the old object already used
// them. It applies to pods and to pod templates alike.
export function dropDisabledPodSpecFields(spec: Record<string, unknown> | undefined, oldSpec?: Record<string, unknown>): void {
  if (!isObj(spec)) return;
  const containers = (s: Obj | undefined): Obj[] => (s ? [...objects(s.containers), ...objects(s.initContainers), ...objects(s.ephemeralContainers)] : []);
  const old = isObj(oldSpec) ? oldSpec : undefined;
  const inUse = (test: (s: Obj) => boolean): boolean => !!old && test(old);
  if (!inUse((s) => objects(s.resourceClaims).length > 0 || containers(s).some((c) => isObj(c.resources) && objects(c.resources.claims).length > 0))) {
    delete spec.resourceClaims;
    for (const c of containers(spec)) if (isObj(c.resources)) delete c.resources.claims;
  }
  if (!inUse((s) => containers(s).some((c) => objects(c.resizePolicy).length > 0))) {
    for (const c of containers(spec)) delete c.resizePolicy;
  }
  if (!inUse((s) => objects(s.initContainers).some((c) => c.restartPolicy !== undefined))) {
    for (const c of objects(spec.initContainers)) delete c.restartPolicy;
  }
  if (!inUse((s) => s.hostUsers !== undefined)) delete spec.hostUsers;
}

// dropDisabledPodTemplateFields applies dropDisabledPodSpecFields to a template's spec.
export function dropDisabledPodTemplateFields(template: Record<string, unknown> | undefined, oldTemplate?: Record<string, unknown>): void {
  if (!isObj(template)) return;
  const oldSpec = isObj(oldTemplate) && isObj(oldTemplate.spec) ? oldTemplate.spec : undefined;
  dropDisabledPodSpecFields(template.spec as Obj | undefined, oldSpec);
}
