/* eslint-disable @typescript-eslint/no-explicit-any -- these specs reach into untyped JSON objects */
import { convertPod, defaultPod, defaultPodSpec, defaultPodTemplateSpec, dropDisabledPodSpecFields, imageTag } from './pod-defaults';

describe('defaultPodSpec', () => {
  it('fills SetDefaults_PodSpec and container defaults', () => {
    const spec: Record<string, unknown> = { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] };
    defaultPodSpec(spec);
    expect(spec).toEqual({
      containers: [
        {
          name: 'c',
          image: 'nginx',
          imagePullPolicy: 'Always',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          resources: {},
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
    });
    // enableServiceLinks belongs to SetDefaults_Pod only.
    expect(spec.enableServiceLinks).toBeUndefined();
  });

  it('keeps explicit values', () => {
    const spec: Record<string, unknown> = { restartPolicy: 'Never', dnsPolicy: 'Default', terminationGracePeriodSeconds: 0, schedulerName: 'mine', containers: [] };
    defaultPodSpec(spec);
    expect(spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'Default', terminationGracePeriodSeconds: 0, schedulerName: 'mine' });
  });

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['registry.example.com:5000/team/app', 'Always'],
    ['registry.example.com:5000/team/app:v2', 'IfNotPresent'],
    ['busybox@sha256:' + 'a'.repeat(64), 'IfNotPresent'],
    ['', 'IfNotPresent'],
    ['Nginx', 'IfNotPresent'],
  ])('image %s pulls %s', (image, policy) => {
    const spec: Record<string, unknown> = { containers: [{ name: 'c', image }] };
    defaultPodSpec(spec);
    expect((spec.containers as Record<string, unknown>[])[0].imagePullPolicy).toBe(policy);
  });

  it('defaults probes, handlers and env field references', () => {
    const spec: Record<string, unknown> = {
      containers: [
        {
          name: 'c',
          image: 'a:1',
          livenessProbe: { httpGet: { port: 80 } },
          readinessProbe: { exec: { command: ['true'] }, periodSeconds: 5 },
          lifecycle: { preStop: { httpGet: { port: 'http' } } },
          env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        },
      ],
    };
    defaultPodSpec(spec);
    const c = (spec.containers as Record<string, any>[])[0];
    expect(c.livenessProbe).toEqual({ httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.readinessProbe.periodSeconds).toBe(5);
    expect(c.lifecycle.preStop.httpGet).toEqual({ port: 'http', path: '/', scheme: 'HTTP' });
    expect(c.env[0].valueFrom.fieldRef.apiVersion).toBe('v1');
  });

  it('defaults volume sources', () => {
    const spec: Record<string, unknown> = {
      containers: [],
      volumes: [
        { name: 'a' },
        { name: 'b', secret: { secretName: 's' } },
        { name: 'c', configMap: { name: 'cm' } },
        { name: 'd', hostPath: { path: '/x' } },
        { name: 'e', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
        { name: 'f', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
      ],
    };
    defaultPodSpec(spec);
    expect(spec.volumes).toEqual([
      { name: 'a', emptyDir: {} },
      { name: 'b', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'c', configMap: { name: 'cm', defaultMode: 420 } },
      { name: 'd', hostPath: { path: '/x', type: '' } },
      { name: 'e', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }], defaultMode: 420 } },
      { name: 'f', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }], defaultMode: 420 } },
    ]);
  });
});

describe('defaultPodSpec: the deprecated serviceAccount', () => {
  it('stands for an empty serviceAccountName and always mirrors serviceAccountName', () => {
    const deprecatedOnly: Record<string, unknown> = { serviceAccount: 'legacy' };
    defaultPodSpec(deprecatedOnly);
    expect(deprecatedOnly).toMatchObject({ serviceAccountName: 'legacy', serviceAccount: 'legacy' });
    const both: Record<string, unknown> = { serviceAccountName: 'builder', serviceAccount: 'other' };
    defaultPodSpec(both);
    expect(both).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
    const neither: Record<string, unknown> = { serviceAccount: '' };
    defaultPodSpec(neither);
    expect(neither).not.toHaveProperty('serviceAccount');
  });
});

describe('defaultPodTemplateSpec', () => {
  it('defaults the spec of a template', () => {
    const template: Record<string, unknown> = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } };
    defaultPodTemplateSpec(template);
    expect(template.spec).toMatchObject({ restartPolicy: 'Always', terminationGracePeriodSeconds: 30 });
    expect((template.spec as Record<string, unknown>).enableServiceLinks).toBeUndefined();
    expect(template.metadata).toEqual({ labels: { a: 'b' }, creationTimestamp: null });
  });

  it('shows the Go shape of the template: metadata with a null creationTimestamp, containers with resources', () => {
    const template: Record<string, unknown> = { spec: { containers: [{ name: 'c', image: 'x:1', resources: { limits: { cpu: '1' } } }, { name: 'd', image: 'y:1' }] } };
    defaultPodTemplateSpec(template);
    expect(template.metadata).toEqual({ creationTimestamp: null });
    const containers = (template.spec as { containers: { resources: unknown }[] }).containers;
    expect(containers.map((c) => c.resources)).toEqual([{ limits: { cpu: '1' } }, {}]);
  });
});

describe('defaultPod', () => {
  it('copies limits to requests, enables service links and publishes host-network ports', () => {
    const pod: Record<string, unknown> = {
      spec: {
        hostNetwork: true,
        containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 8080 }], resources: { limits: { cpu: '1' }, requests: { memory: '1Gi' } } }],
      },
    };
    defaultPod(pod);
    const spec = pod.spec as Record<string, any>;
    expect(spec.enableServiceLinks).toBe(true);
    expect(spec.containers[0].resources.requests).toEqual({ memory: '1Gi', cpu: '1' });
    expect(spec.containers[0].ports[0]).toEqual({ containerPort: 8080, hostPort: 8080, protocol: 'TCP' });
  });
});

describe('dropDisabledPodSpecFields', () => {
  it('drops fields of disabled gates unless in use', () => {
    const spec: Record<string, any> = {
      hostUsers: false,
      resourceClaims: [{ name: 'r' }],
      initContainers: [{ name: 'i', restartPolicy: 'Always' }],
      containers: [{ name: 'c', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }], resources: { claims: [{ name: 'r' }] } }],
    };
    dropDisabledPodSpecFields(spec);
    expect(spec).toEqual({ initContainers: [{ name: 'i' }], containers: [{ name: 'c', resources: {} }] });
    const kept: Record<string, any> = { hostUsers: false };
    dropDisabledPodSpecFields(kept, { hostUsers: true });
    expect(kept.hostUsers).toBe(false);
  });
});

describe('imageTag', () => {
  it('parses references', () => {
    expect(imageTag('localhost:5000/a/b:c')).toBe('c');
    expect(imageTag('a/b')).toBe('latest');
  });
});

describe('convertPod', () => {
  const converted = (pod: Record<string, any>) => {
    convertPod(pod);
    return pod;
  };

  it('makes a negative terminationGracePeriodSeconds 1', () => {
    expect(converted({ spec: { terminationGracePeriodSeconds: -5 } }).spec.terminationGracePeriodSeconds).toBe(1);
    expect(converted({ spec: { terminationGracePeriodSeconds: 0 } }).spec.terminationGracePeriodSeconds).toBe(0);
  });

  it('keeps podIP and podIPs together, podIP winning', () => {
    expect(converted({ spec: {}, status: { podIP: '10.0.0.1' } }).status.podIPs).toEqual([{ ip: '10.0.0.1' }]);
    expect(converted({ spec: {}, status: { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.2' }, { ip: 'fd00::1' }] } }).status.podIPs).toEqual([{ ip: '10.0.0.1' }]);
    expect(converted({ spec: {}, status: { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] } }).status.podIPs).toHaveLength(2);
    expect(converted({ spec: {}, status: { podIPs: [{ ip: '10.0.0.3' }] } }).status.podIP).toBe('10.0.0.3');
  });

  it("writes a condition's unset times as null", () => {
    const pod = converted({ spec: {}, status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] } });
    expect(pod.status.conditions[0]).toEqual({ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-01-01T00:00:00Z' });
  });

  it('writes container statuses in their Go shape', () => {
    const pod = converted({ spec: {}, status: { containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 1, reason: 'Error' } } }], initContainerStatuses: [{ name: 'i', state: { running: {} } }] } });
    expect(pod.status.containerStatuses[0]).toEqual({
      name: 'c',
      state: { terminated: { exitCode: 1, reason: 'Error', startedAt: null, finishedAt: null } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: '',
      imageID: '',
    });
    expect(pod.status.initContainerStatuses[0].state).toEqual({ running: { startedAt: null } });
  });
});
