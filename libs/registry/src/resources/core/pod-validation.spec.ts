/* eslint-disable @typescript-eslint/no-explicit-any -- these specs reach into untyped JSON objects */
import { field } from '@plinth/machinery';
import { defaultPod, defaultPodSpec } from './pod-defaults';
import { validatePodCreate, validatePodSpec, validatePodStatusUpdate, validatePodTemplateSpec, validatePodUpdate } from './pod-validation';

type Obj = Record<string, any>;

function podSpec(overrides: Obj = {}, container: Obj = {}): Obj {
  const spec: Obj = { containers: [{ name: 'app', image: 'nginx:1.25', ...container }], ...overrides };
  defaultPodSpec(spec);
  return spec;
}

function errorsOf(spec: Obj): string[] {
  return validatePodSpec(spec, field.newPath('spec')).map(String);
}

describe('validatePodSpec', () => {
  it('accepts a defaulted minimal spec', () => {
    expect(errorsOf(podSpec())).toEqual([]);
  });

  it('requires containers', () => {
    const spec = podSpec();
    spec.containers = [];
    expect(errorsOf(spec)).toEqual(['spec.containers: Required value']);
  });

  it('checks container names and images', () => {
    const spec = podSpec({}, { name: 'Bad_Name', image: '' });
    expect(errorsOf(spec)).toEqual([
      'spec.containers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'spec.containers[0].image: Required value',
    ]);
  });

  it('rejects duplicate container names across init and regular containers', () => {
    const spec = podSpec({ initContainers: [{ name: 'app', image: 'x:1' }] });
    defaultPodSpec(spec);
    expect(errorsOf(spec)).toEqual(['spec.initContainers[0].name: Duplicate value: "app"']);
  });

  it('checks restartPolicy and dnsPolicy', () => {
    expect(errorsOf(podSpec({ restartPolicy: 'Sometimes', dnsPolicy: 'Bogus' }))).toEqual([
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "Bogus": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ]);
  });

  it('checks ports', () => {
    const spec = podSpec({}, { ports: [{ containerPort: 0 }, { name: 'UPPER', containerPort: 70000, protocol: 'ICMP', hostPort: -1 }] });
    expect(errorsOf(spec)).toEqual([
      'spec.containers[0].ports[0].containerPort: Required value',
      'spec.containers[0].ports[1].name: Invalid value: "UPPER": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].ports[1].name: Invalid value: "UPPER": must contain at least one letter (a-z)',
      'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ]);
  });

  it('detects host port conflicts', () => {
    const spec = podSpec({}, { ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81, hostPort: 8080 }] });
    expect(errorsOf(spec)).toEqual(['spec.containers[0].ports[1].hostPort: Duplicate value: "/TCP/8080"']);
  });

  it('checks env', () => {
    const spec = podSpec({}, { env: [{ name: '1BAD' }, { name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'B', valueFrom: {} }] });
    expect(errorsOf(spec)).toEqual([
      'spec.containers[0].env[0].name: Invalid value: "1BAD": a valid environment variable name must consist of alphabetic characters, digits, \'_\', \'-\', or \'.\', and must not start with a digit (e.g. \'my.env-name\',  or \'MY_ENV.NAME\',  or \'MyEnvName1\', regex used for validation is \'[-._a-zA-Z][-._a-zA-Z0-9]*\')',
      'spec.containers[0].env[1].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
      'spec.containers[0].env[2].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    ]);
  });

  it('checks downward API env field paths', () => {
    const spec = podSpec({}, { env: [{ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.phase' } } }] });
    expect(errorsOf(spec)).toEqual([
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.podIP", "status.podIPs"',
    ]);
  });

  it('checks resources', () => {
    const spec = podSpec({}, { resources: { limits: { cpu: '1' }, requests: { cpu: '2', 'example.com/gpu': '1', bogus: '1' } } });
    expect(errorsOf(spec)).toEqual([
      'spec.containers[0].resources.requests[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified',
      'spec.containers[0].resources.requests[bogus]: Invalid value: "bogus": must be a standard resource for containers',
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ]);
    expect(errorsOf(podSpec({}, { resources: { requests: { memory: '-1Gi' } } }))).toEqual([
      'spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
    ]);
  });

  it('checks probes', () => {
    const spec = podSpec({}, { livenessProbe: { successThreshold: 2 }, readinessProbe: { exec: { command: [] }, tcpSocket: { port: 80 }, terminationGracePeriodSeconds: 5 } });
    expect(errorsOf(spec)).toEqual([
      'spec.containers[0].livenessProbe: Required value: must specify a handler type',
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
      'spec.containers[0].readinessProbe.exec.command: Required value',
      'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
      'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes',
    ]);
  });

  it('forbids probes and lifecycle on init containers', () => {
    const spec = podSpec({ initContainers: [{ name: 'init', image: 'x:1', readinessProbe: { exec: { command: ['a'] } } }] });
    defaultPodSpec(spec);
    expect(errorsOf(spec)).toEqual(['spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always']);
  });

  it('checks volumes and mounts', () => {
    const spec = podSpec(
      { volumes: [{ name: 'data', emptyDir: {} }, { name: 'data', emptyDir: {} }, { name: 'two', emptyDir: {}, hostPath: { path: '/x' } }, { name: 's', secret: {} }] },
      { volumeMounts: [{ name: 'missing', mountPath: '/a' }, { name: 'data', mountPath: '/a' }] },
    );
    expect(errorsOf(spec)).toEqual([
      'spec.volumes[1].name: Duplicate value: "data"',
      'spec.volumes[2].emptyDir: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[3].secret.secretName: Required value',
      'spec.containers[0].volumeMounts[0].name: Not found: "missing"',
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique',
    ]);
  });

  it('checks tolerations with ValidateTolerations wording', () => {
    const spec = podSpec({
      tolerations: [
        { operator: 'Equal', value: 'v' },
        { key: 'k', operator: 'Exists', value: 'v' },
        { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule', tolerationSeconds: 5 },
        { key: 'k', operator: 'Less', effect: 'Sometimes' },
      ],
    });
    expect(errorsOf(spec)).toEqual([
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      'spec.tolerations[1].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\'',
      "spec.tolerations[2].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      'spec.tolerations[3].operator: Unsupported value: "Less": supported values: "Equal", "Exists"',
      'spec.tolerations[3].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]);
  });

  it('checks scalar fields', () => {
    const spec = podSpec({ activeDeadlineSeconds: 0, hostname: 'Host', subdomain: 'a.b', nodeSelector: { 'bad key!': 'v' }, serviceAccountName: 'UPPER' });
    expect(errorsOf(spec)).toEqual([
      'spec.nodeSelector: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'spec.serviceAccountName: Invalid value: "UPPER": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
      'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
      'spec.hostname: Invalid value: "Host": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'spec.subdomain: Invalid value: "a.b": must not contain dots',
    ]);
  });

  it('checks affinity', () => {
    const spec = podSpec({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'a', operator: 'In' }] } }],
        },
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: '' }] },
      },
    });
    expect(errorsOf(spec)).toEqual([
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    ]);
  });

  it('checks topology spread constraints', () => {
    const spec = podSpec({
      topologySpreadConstraints: [
        { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 },
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' },
      ],
    });
    expect(errorsOf(spec)).toEqual([
      'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, ScheduleAnyway}"',
      'spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
    ]);
  });

  it('checks dnsConfig with dnsPolicy None', () => {
    expect(errorsOf(podSpec({ dnsPolicy: 'None' }))).toEqual(['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']);
    expect(errorsOf(podSpec({ dnsConfig: { nameservers: ['1.2.3.4', 'x'] } }))).toEqual(['spec.dnsConfig.nameservers[1]: Invalid value: "x": must be valid IP address']);
  });

  it('checks os', () => {
    expect(errorsOf(podSpec({ os: { name: 'plan9' } }))).toEqual(['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"']);
    expect(errorsOf(podSpec({ os: { name: 'windows' }, securityContext: { runAsUser: 1 } }))).toEqual([
      'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
    ]);
  });
});

describe('validatePodTemplateSpec', () => {
  it('addresses labels at path.labels and forbids ephemeral containers', () => {
    const template = { metadata: { labels: { a: '-' } }, spec: podSpec({ ephemeralContainers: [{ name: 'dbg', image: 'x:1', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }] }) };
    expect(validatePodTemplateSpec(template, field.newPath('spec', 'template')).map(String)).toEqual([
      'spec.template.labels: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
      'spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
    ]);
  });

  it('reports a missing container list as Kubernetes does', () => {
    expect(field.toAggregate(validatePodTemplateSpec({ spec: {} }, field.newPath('spec', 'template')))).toBe(
      '[spec.template.spec.containers: Required value, spec.template.spec.restartPolicy: Required value, spec.template.spec.dnsPolicy: Required value]',
    );
  });
});

describe('pod create, update and status update', () => {
  function pod(spec: Obj = {}): Obj {
    const p: Obj = { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], ...spec } };
    defaultPod(p);
    return p;
  }

  it('forbids ephemeral containers and nodeName with scheduling gates on create', () => {
    const p = pod({ nodeName: 'n1', schedulingGates: [{ name: 'example.com/gate' }] });
    expect(validatePodCreate(p as never).map(String)).toEqual(['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared']);
  });

  it('requires host ports to match container ports for host-network pods', () => {
    const p = pod({ hostNetwork: true, containers: [{ name: 'app', image: 'x:1', ports: [{ containerPort: 80, hostPort: 81 }] }] });
    expect(validatePodCreate(p as never).map(String)).toEqual(['spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true']);
  });

  it('allows image and activeDeadlineSeconds changes only', () => {
    const old = pod({ activeDeadlineSeconds: 100 });
    const ok = pod({ activeDeadlineSeconds: 50 });
    ok.spec.containers[0].image = 'nginx:1.26';
    expect(validatePodUpdate(ok as never, old as never)).toEqual([]);
    const longer = pod({ activeDeadlineSeconds: 200 });
    expect(validatePodUpdate(longer as never, old as never).map(String)).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value',
    ]);
    const changed = pod({ activeDeadlineSeconds: 100, restartPolicy: 'Never' });
    const errs = validatePodUpdate(changed as never, old as never).map(String);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toContain(
      'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
    );
    expect(validatePodUpdate(pod() as never, old as never).map(String)[0]).toBe(
      'spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value',
    );
    const fewer = pod();
    fewer.spec.containers = [];
    expect(validatePodUpdate(fewer as never, pod() as never).map(String)).toEqual(['spec.containers: Forbidden: pod updates may not add or remove containers']);
  });

  it('only lets scheduling gates be removed and tolerations be added', () => {
    const old = pod({ schedulingGates: [{ name: 'a' }], tolerations: [{ key: 'k', operator: 'Exists' }] });
    const next = pod({ schedulingGates: [{ name: 'b' }], tolerations: [{ key: 'k', operator: 'Exists' }, { key: 'j', operator: 'Exists' }] });
    expect(validatePodUpdate(next as never, old as never).map(String)).toEqual([
      "spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'b'",
    ]);
    const modified = pod({ schedulingGates: [{ name: 'a' }], tolerations: [{ key: 'k', operator: 'Equal' }] });
    expect(validatePodUpdate(modified as never, old as never).map(String)).toEqual([
      'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    ]);
  });

  it('validates status updates', () => {
    const old = pod({ nodeName: 'n1' });
    const next = pod({ nodeName: 'n1' });
    next.status = { podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], nominatedNodeName: 'Bad' };
    expect(validatePodStatusUpdate(next as never, old as never).map(String)).toEqual([
      'status.nominatedNodeName: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
      'status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"10.0.0.2"}}: may specify no more than one IP for each IP family',
    ]);
  });

  it('forbids restarting terminated containers of a Never pod', () => {
    const old = pod({ nodeName: 'n1', restartPolicy: 'Never' });
    old.status = { containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 1 } } }] };
    const next = JSON.parse(JSON.stringify(old));
    next.status.containerStatuses[0].state = { running: {} };
    expect(validatePodStatusUpdate(next, old as never).map(String)).toEqual([
      'status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state',
    ]);
  });
});
