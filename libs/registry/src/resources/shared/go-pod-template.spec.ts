import { goPodTemplateSpec, goValueText } from './go-pod-template';
import { goPodTemplateStructs } from './go-pod-template-types';
import { goQuantityText } from './go-quantity';

const pointers = /\(0xc[0-9a-f]+\)/g;

describe('goPodTemplateSpec', () => {
  it("prints a Job's defaulted template as kube-apiserver 1.28 prints its core.PodTemplateSpec", () => {
    const labels = { 'job-name': 'j1', 'batch.platform.io/job-name': 'j1', 'controller-uid': 'u-1', 'batch.platform.io/controller-uid': 'u-1' };
    const template = {
      metadata: { creationTimestamp: null, labels },
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'c', image: 'nginx', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }],
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
      },
    };
    // As a real kube-apiserver 1.28.7 answered for this template (its pointers' addresses aside).
    const kube =
      'core.PodTemplateSpec{ObjectMeta:v1.ObjectMeta{Name:"", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string{"batch.platform.io/controller-uid":"u-1", "batch.platform.io/job-name":"j1", "controller-uid":"u-1", "job-name":"j1"}, Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}, ' +
      'Spec:core.PodSpec{Volumes:[]core.Volume(nil), InitContainers:[]core.Container(nil), Containers:[]core.Container{core.Container{Name:"c", Image:"nginx", Command:[]string(nil), Args:[]string(nil), WorkingDir:"", Ports:[]core.ContainerPort(nil), EnvFrom:[]core.EnvFromSource(nil), Env:[]core.EnvVar(nil), Resources:core.ResourceRequirements{Limits:core.ResourceList(nil), Requests:core.ResourceList(nil), Claims:[]core.ResourceClaim(nil)}, ResizePolicy:[]core.ContainerResizePolicy(nil), RestartPolicy:(*core.ContainerRestartPolicy)(nil), VolumeMounts:[]core.VolumeMount(nil), VolumeDevices:[]core.VolumeDevice(nil), LivenessProbe:(*core.Probe)(nil), ReadinessProbe:(*core.Probe)(nil), StartupProbe:(*core.Probe)(nil), Lifecycle:(*core.Lifecycle)(nil), TerminationMessagePath:"/dev/termination-log", TerminationMessagePolicy:"File", ImagePullPolicy:"Always", SecurityContext:(*core.SecurityContext)(nil), Stdin:false, StdinOnce:false, TTY:false}}, ' +
      'EphemeralContainers:[]core.EphemeralContainer(nil), RestartPolicy:"Never", TerminationGracePeriodSeconds:(*int64)(0xc00c71b760), ActiveDeadlineSeconds:(*int64)(nil), DNSPolicy:"ClusterFirst", NodeSelector:map[string]string(nil), ServiceAccountName:"", AutomountServiceAccountToken:(*bool)(nil), NodeName:"", SecurityContext:(*core.PodSecurityContext)(0xc00125cc60), ImagePullSecrets:[]core.LocalObjectReference(nil), Hostname:"", Subdomain:"", SetHostnameAsFQDN:(*bool)(nil), Affinity:(*core.Affinity)(nil), SchedulerName:"default-scheduler", Tolerations:[]core.Toleration(nil), HostAliases:[]core.HostAlias(nil), PriorityClassName:"", Priority:(*int32)(nil), PreemptionPolicy:(*core.PreemptionPolicy)(nil), DNSConfig:(*core.PodDNSConfig)(nil), ReadinessGates:[]core.PodReadinessGate(nil), RuntimeClassName:(*string)(nil), Overhead:core.ResourceList(nil), EnableServiceLinks:(*bool)(nil), TopologySpreadConstraints:[]core.TopologySpreadConstraint(nil), OS:(*core.PodOS)(nil), SchedulingGates:[]core.PodSchedulingGate(nil), ResourceClaims:[]core.PodResourceClaim(nil)}}';
    expect(goPodTemplateSpec(template).text.replace(pointers, '(<ptr>)')).toBe(kube.replace(pointers, '(<ptr>)'));
  });

  it('prints volumes with their embedded source, resource lists and ephemeral containers field by field', () => {
    const text = goPodTemplateSpec({
      spec: {
        volumes: [{ name: 'v', emptyDir: {} }],
        containers: [{ name: 'c', resources: { limits: { cpu: '0.5' } } }],
        ephemeralContainers: [{ name: 'e', targetContainerName: 'c' }],
      },
    }).text;
    expect(text).toContain('Volumes:[]core.Volume{core.Volume{Name:"v", VolumeSource:core.VolumeSource{HostPath:(*core.HostPathVolumeSource)(nil), EmptyDir:(*core.EmptyDirVolumeSource)(0xc');
    expect(text).toContain('Limits:core.ResourceList{"cpu":resource.Quantity{i:resource.int64Amount{value:5, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}}');
    expect(text).toContain('EphemeralContainers:[]core.EphemeralContainer{core.EphemeralContainer{EphemeralContainerCommon:core.EphemeralContainerCommon{Name:"e", ');
    expect(text).toContain('TargetContainerName:"c"}}');
  });
});

describe('goValueText', () => {
  it('prints every field type the template structs hold, set or not', () => {
    const fieldTypes = Object.values(goPodTemplateStructs).flatMap((fields) => fields.map(([, , type]) => type));
    for (const type of fieldTypes) {
      expect(() => goValueText(type, undefined)).not.toThrow();
      expect(() => goValueText(type, {})).not.toThrow();
    }
  });
});

describe('goQuantityText', () => {
  it('keeps canonical text as the cached string and drops the rest', () => {
    expect(goQuantityText('500m')).toBe('resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}');
    expect(goQuantityText('1000')).toBe('resource.Quantity{i:resource.int64Amount{value:1000, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}');
    expect(goQuantityText('3Gi')).toBe('resource.Quantity{i:resource.int64Amount{value:3221225472, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"3Gi", Format:"BinarySI"}');
  });

  it('holds what does not fit an int64 amount as an inf.Dec', () => {
    expect(goQuantityText('1.5Gi')).toMatch(/^resource\.Quantity\{i:resource\.int64Amount\{value:0, scale:0\}, d:resource\.infDecAmount\{Dec:\(\*inf\.Dec\)\(0xc[0-9a-f]+\)\}, s:"", Format:"BinarySI"\}$/);
  });
});
