// helm/plinth rendered without Helm (test/helm/render renders the Go-template subset the
// chart keeps to), for the default values and for overrides: every document parses as YAML and
// is a known kind, selectors select their pods, Services reach named container ports, mounts
// name existing Secrets and ConfigMaps, and arguments and environment follow the values.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { controllerWorkers, loadControllerManagerConfiguration, parseDuration } from '@plinth/config';
import { renderChart } from './render/chart';

const root = join(__dirname, '../..');
const chartDir = join(root, 'helm/plinth');
const release = { name: 'ctl', namespace: 'plinth-system' };

/* eslint-disable @typescript-eslint/no-explicit-any */
type Manifest = any;

const knownKinds: Record<string, string[]> = {
  v1: ['ConfigMap', 'Secret', 'Service', 'ServiceAccount'],
  'apps/v1': ['Deployment', 'StatefulSet'],
  'monitoring.coreos.com/v1': ['ServiceMonitor'],
  'policy/v1': ['PodDisruptionBudget'],
  'networking.k8s.io/v1': ['NetworkPolicy'],
};

function render(values: Record<string, unknown> = {}): Manifest[] {
  const { manifests } = renderChart(chartDir, { ...release, values });
  const objects: Manifest[] = [];
  for (const [file, text] of manifests) {
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}\n${text}`);
      const object = doc.toJS();
      if (object !== null) objects.push(object);
    }
  }
  return objects;
}

const find = (objects: Manifest[], kind: string, name: string): Manifest => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
};
const workloads = (objects: Manifest[]) => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet');
const container = (workload: Manifest) => workload.spec.template.spec.containers[0];
const envOf = (workload: Manifest): Record<string, string> => Object.fromEntries((container(workload).env ?? []).filter((e: Manifest) => 'value' in e).map((e: Manifest) => [e.name, e.value]));
const argValue = (workload: Manifest, flag: string): string | undefined =>
  (container(workload).args as string[]).find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
const subset = (small: Record<string, string>, large: Record<string, string>) => Object.entries(small).every(([k, v]) => large?.[k] === v);

// checkConsistency holds for every rendering.
function checkConsistency(objects: Manifest[]): void {
  const seen = new Set<string>();
  for (const o of objects) {
    expect(knownKinds[o.apiVersion]).toContain(o.kind);
    expect(o.metadata.namespace).toBe(release.namespace);
    expect(o.metadata.labels).toMatchObject({ 'app.kubernetes.io/instance': release.name, 'app.kubernetes.io/managed-by': 'Helm' });
    const key = `${o.kind}/${o.metadata.name}`;
    expect(seen.has(key)).toBe(false);
    seen.add(key);
  }
  for (const w of workloads(objects)) {
    const pod = w.spec.template;
    expect(subset(w.spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
    // No two workloads select each other's pods.
    for (const other of workloads(objects)) if (other !== w) expect(subset(w.spec.selector.matchLabels, other.spec.template.metadata.labels)).toBe(false);
    if (pod.spec.serviceAccountName) find(objects, 'ServiceAccount', pod.spec.serviceAccountName);
    const volumes = new Map<string, Manifest>((pod.spec.volumes ?? []).map((v: Manifest) => [v.name, v]));
    for (const c of pod.spec.containers) {
      expect(c.image).toMatch(/^[^:\s]+:[^:\s]+$/);
      expect(c.resources.requests).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
      expect(c.resources.limits).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
      for (const mount of c.volumeMounts ?? []) expect(volumes.has(mount.name) || (w.spec.volumeClaimTemplates ?? []).some((t: Manifest) => t.metadata.name === mount.name)).toBe(true);
      for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe].filter(Boolean)) {
        const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
        expect(c.ports.map((p: Manifest) => p.name)).toContain(port);
      }
    }
    for (const volume of volumes.values()) {
      if (volume.configMap) find(objects, 'ConfigMap', volume.configMap.name);
      const secretName = volume.secret?.secretName;
      if (!secretName || secretName === 'managed-pki') continue;
      const secret = find(objects, 'Secret', secretName);
      for (const item of volume.secret.items ?? []) expect(Object.keys(secret.data)).toContain(item.key);
    }
  }
  for (const budget of objects.filter((o) => o.kind === 'PodDisruptionBudget')) {
    const selected = workloads(objects).filter((w) => subset(budget.spec.selector.matchLabels, w.spec.template.metadata.labels));
    expect(selected.map((w) => w.metadata.name)).toEqual([budget.metadata.name]);
    expect(budget.spec.maxUnavailable).toBe(1);
  }
  for (const monitor of objects.filter((o) => o.kind === 'ServiceMonitor')) {
    expect(monitor.spec.namespaceSelector.matchNames).toEqual([release.namespace]);
    const selected = objects.filter((o) => o.kind === 'Service' && subset(monitor.spec.selector.matchLabels, o.metadata.labels));
    expect(selected.length).toBeGreaterThan(0);
    for (const endpoint of monitor.spec.endpoints) {
      for (const service of selected) expect(service.spec.ports.map((p: Manifest) => p.name)).toContain(endpoint.port);
      const token = endpoint.bearerTokenSecret;
      if (token) expect(Object.keys(find(objects, 'Secret', token.name).data)).toContain(token.key);
    }
  }
  for (const service of objects.filter((o) => o.kind === 'Service')) {
    const selected = workloads(objects).filter((w) => subset(service.spec.selector, w.spec.template.metadata.labels));
    expect(selected).toHaveLength(1);
    const ports = selected[0].spec.template.spec.containers.flatMap((c: Manifest) => c.ports ?? []);
    for (const port of service.spec.ports) expect(ports.map((p: Manifest) => p.name)).toContain(port.targetPort);
  }
}

// serviceAddress is host:port of a Service port, as the components are given it.
const serviceAddress = (objects: Manifest[], name: string, portName: string) => `${name}:${find(objects, 'Service', name).spec.ports.find((p: Manifest) => p.name === portName).port}`;

describe('helm/plinth', () => {
  // The PKI values as an operator makes them, with tools/helm-pki-values.ts.
  const pki = parse(
    execFileSync(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'tools/helm-pki-values.ts'), '--release', release.name, '--namespace', release.namespace], { cwd: root, encoding: 'utf8' }),
  ) as Record<string, unknown>;

  describe('with the default values and a generated PKI', () => {
    const objects = render(pki);
    const values = renderChart(chartDir, { ...release, values: pki }).values as Manifest;

    it('renders consistent objects', () => {
      checkConsistency(objects);
      expect(workloads(objects).map((w) => `${w.kind}/${w.metadata.name}`).sort()).toEqual([
        'Deployment/ctl-authz',
        'Deployment/ctl-controllers',
        'Deployment/ctl-gateway',
        'Deployment/ctl-node-simulator',
        'Deployment/ctl-storage',
        'StatefulSet/ctl-etcd',
        'StatefulSet/ctl-nats',
      ]);
    });

    it('scales the gateway, authz and controllers as the values say, the gateway behind HTTPS with /readyz and /livez probes', () => {
      const gateway = find(objects, 'Deployment', 'ctl-gateway');
      expect(gateway.spec.replicas).toBe(values.gateway.replicas);
      expect(values.gateway.replicas).toBe(2);
      expect(find(objects, 'Deployment', 'ctl-authz').spec.replicas).toBe(2);
      expect(find(objects, 'Deployment', 'ctl-controllers').spec.replicas).toBe(2);
      const c = container(gateway);
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'https', scheme: 'HTTPS' });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'https', scheme: 'HTTPS' });
      expect(c.ports).toEqual([{ name: 'https', containerPort: values.gateway.securePort }]);
      expect(argValue(gateway, '--secure-port')).toBe(String(values.gateway.securePort));
      expect(find(objects, 'Service', 'ctl-gateway').spec.ports).toEqual([{ name: 'https', port: 443, targetPort: 'https' }]);
    });

    it('gives a stopping gateway time for its preStop pause, shutdown delay and drain, /readyz failing for two probe periods', () => {
      const gateway = find(objects, 'Deployment', 'ctl-gateway');
      const c = container(gateway);
      expect(c.lifecycle.preStop.exec.command).toEqual(['sleep', String(values.gateway.preStopSleepSeconds)]);
      const delaySeconds = parseDuration(argValue(gateway, '--shutdown-delay-duration') ?? '') / 1000;
      const requestTimeoutSeconds = parseDuration(argValue(gateway, '--request-timeout') ?? '') / 1000;
      expect(delaySeconds).toBeGreaterThanOrEqual(2 * c.readinessProbe.periodSeconds);
      expect(gateway.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(values.gateway.preStopSleepSeconds + delaySeconds + requestTimeoutSeconds);
    });

    it('wires the components to each other through their Services', () => {
      const gateway = find(objects, 'Deployment', 'ctl-gateway');
      const authz = find(objects, 'Deployment', 'ctl-authz');
      const storage = find(objects, 'Deployment', 'ctl-storage');
      const storageAddress = serviceAddress(objects, 'ctl-storage', 'grpc');
      const natsUrl = `tls://${serviceAddress(objects, 'ctl-nats', 'client')}`;
      for (const w of [gateway, authz]) {
        expect(argValue(w, '--storage-address')).toBe(storageAddress);
        expect(argValue(w, '--nats-url')).toBe(natsUrl);
      }
      expect(envOf(storage)).toMatchObject({ PLINTH_ETCD_SERVERS: `https://${serviceAddress(objects, 'ctl-etcd', 'client')}`, PLINTH_STORAGE_ADDRESS: '0.0.0.0:7443' });
      expect(container(storage).args).toEqual(['apps/storage/src/main.ts']);
      const etcd = find(objects, 'StatefulSet', 'ctl-etcd');
      expect(etcd.spec.serviceName).toBe('ctl-etcd-peers');
      expect(etcd.spec.volumeClaimTemplates[0].spec.resources.requests.storage).toBe(values.etcd.persistence.size);
    });

    it('ships the generated PKI: the serving certificate names the gateway Service, the controllers reach it with a kubeconfig', () => {
      const secret = find(objects, 'Secret', 'ctl-pki');
      const data = (key: string) => Buffer.from(secret.data[key], 'base64').toString('utf8');
      const serving = new X509Certificate(data('apiserver.crt'));
      expect(serving.subjectAltName).toContain('DNS:ctl-gateway.plinth-system.svc');
      expect(serving.verify(new X509Certificate(data('ca.crt')).publicKey)).toBe(true);
      expect(data('controllers.kubeconfig')).toContain('server: https://ctl-gateway.plinth-system.svc\n');
      const controllers = find(objects, 'Deployment', 'ctl-controllers');
      expect(argValue(controllers, '--kubeconfig')).toBe('/etc/plinth/kubeconfig/controllers.kubeconfig');
      expect(container(controllers).volumeMounts).toContainEqual({ name: 'kubeconfig', mountPath: '/etc/plinth/kubeconfig', readOnly: true });
    });

    it('configures the controller manager with a document it loads, and serves its metrics', () => {
      const controllers = find(objects, 'Deployment', 'ctl-controllers');
      const document = find(objects, 'ConfigMap', 'ctl-controller-manager').data['controller-manager.yaml'];
      const config = loadControllerManagerConfiguration(document);
      expect(config.Generic.Controllers).toEqual(values.controllers.controllers);
      expect(controllerWorkers(config)).toMatchObject({ job: 5, daemonset: 2, garbagecollector: 20, 'ttl-after-finished': 5 });
      expect(argValue(controllers, '--config')).toBe('/etc/plinth/config/controller-manager.yaml');
      expect(argValue(controllers, '--metrics-bind-address')).toBe(`0.0.0.0:${values.controllers.metricsPort}`);
      expect(controllers.spec.template.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(values.controllers.metricsPort) });
      expect(argValue(find(objects, 'Deployment', 'ctl-node-simulator'), '--controllers')).toBe('');
    });

    it('embeds the Grafana dashboard file in a ConfigMap for the sidecar', () => {
      const dashboard = find(objects, 'ConfigMap', 'ctl-grafana-dashboard');
      expect(dashboard.metadata.labels.grafana_dashboard).toBe('1');
      expect(JSON.parse(dashboard.data['plinth-dashboard.json'])).toEqual(JSON.parse(readFileSync(join(root, 'deploy/grafana/plinth-dashboard.json'), 'utf8')));
    });

    it('lets drains take the replicated components down one pod at a time', () => {
      expect(objects.filter((o) => o.kind === 'PodDisruptionBudget').map((o) => o.metadata.name)).toEqual(['ctl-gateway', 'ctl-authz', 'ctl-controllers', 'ctl-storage', 'ctl-etcd', 'ctl-nats']);
      expect(render({ ...pki, podDisruptionBudgets: false }).some((o) => o.kind === 'PodDisruptionBudget')).toBe(false);
    });

    it('exports no traces and mounts no token file unless asked', () => {
      for (const w of workloads(objects)) expect(Object.keys(envOf(w)).filter((name) => name.startsWith('OTEL_'))).toEqual([]);
      expect(argValue(find(objects, 'Deployment', 'ctl-gateway'), '--token-auth-file')).toBeUndefined();
      expect(objects.some((o) => o.kind === 'Secret' && o.metadata.name === 'ctl-tokens')).toBe(false);
    });
  });

  describe('with overrides', () => {
    const objects = render({
      ...pki,
      gateway: { replicas: 3, extraArgs: ['--watch-cache=false'] },
      otel: { endpoint: 'http://otel-collector.observability:4318', extraEnv: [{ name: 'OTEL_TRACES_SAMPLER', value: 'parentbased_traceidratio' }] },
      etcd: { external: { endpoints: 'https://etcd-a:2379,https://etcd-b:2379' } },
      nats: { external: { url: 'nats://nats.messaging:4222' } },
      metrics: { token: 'scrape-me' },
      nodeSimulator: { nodes: 0 },
      grafana: { dashboard: { enabled: false } },
      podAnnotations: { team: 'platform' },
    });

    it('renders consistent objects without the etcd, NATS, node simulator and dashboard it was told to leave out', () => {
      checkConsistency(objects);
      expect(workloads(objects).map((w) => w.metadata.name).sort()).toEqual(['ctl-authz', 'ctl-controllers', 'ctl-gateway', 'ctl-storage']);
      expect(objects.filter((o) => o.kind === 'ConfigMap').map((o) => o.metadata.name)).toEqual(['ctl-controller-manager']);
    });

    it('uses the external etcd and NATS', () => {
      expect(envOf(find(objects, 'Deployment', 'ctl-storage')).PLINTH_ETCD_SERVERS).toBe('https://etcd-a:2379,https://etcd-b:2379');
      for (const name of ['ctl-gateway', 'ctl-authz']) expect(argValue(find(objects, 'Deployment', name), '--nats-url')).toBe('nats://nats.messaging:4222');
    });

    it('exports traces from every component under its own service name', () => {
      const names: Record<string, string> = { 'ctl-gateway': 'plinth-gateway', 'ctl-authz': 'plinth-authz', 'ctl-storage': 'plinth-storage', 'ctl-controllers': 'plinth-controllers' };
      for (const [workload, service] of Object.entries(names)) {
        const w = find(objects, 'Deployment', workload);
        expect(envOf(w)).toMatchObject({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability:4318',
          OTEL_SERVICE_NAME: service,
          OTEL_RESOURCE_ATTRIBUTES: 'k8s.namespace.name=plinth-system,k8s.pod.name=$(POD_NAME)',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        });
        const env = container(w).env.map((e: Manifest) => e.name);
        expect(env.indexOf('POD_NAME')).toBeLessThan(env.indexOf('OTEL_RESOURCE_ATTRIBUTES'));
        expect(w.spec.template.metadata.annotations).toMatchObject({ team: 'platform' });
      }
    });

    it('scales the gateway and gives Prometheus a system:monitoring token', () => {
      const gateway = find(objects, 'Deployment', 'ctl-gateway');
      expect(gateway.spec.replicas).toBe(3);
      expect(container(gateway).args).toContain('--watch-cache=false');
      expect(argValue(gateway, '--token-auth-file')).toBe('/etc/plinth/tokens/tokens.csv');
      const tokens = Buffer.from(find(objects, 'Secret', 'ctl-tokens').data['tokens.csv'], 'base64').toString('utf8');
      expect(tokens).toBe('scrape-me,prometheus,prometheus,"system:monitoring"\n');
    });

    it('adds ServiceMonitors for the gateways (HTTPS, the token, the cluster CA) and the controller managers', () => {
      const monitored = render({ ...pki, metrics: { token: 'scrape-me', serviceMonitor: { enabled: true, labels: { release: 'kube-prometheus' } } } });
      checkConsistency(monitored);
      const gateway = find(monitored, 'ServiceMonitor', 'ctl-gateway');
      expect(gateway.metadata.labels.release).toBe('kube-prometheus');
      expect(gateway.spec.endpoints).toEqual([
        {
          port: 'https',
          scheme: 'https',
          path: '/metrics',
          interval: '30s',
          bearerTokenSecret: { name: 'ctl-tokens', key: 'token' },
          tlsConfig: { serverName: 'ctl-gateway.plinth-system.svc', ca: { secret: { name: 'ctl-pki', key: 'ca.crt' } } },
        },
      ]);
      expect(Buffer.from(find(monitored, 'Secret', 'ctl-tokens').data.token, 'base64').toString()).toBe('scrape-me');
      expect(find(monitored, 'ServiceMonitor', 'ctl-controllers').spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s' }]);
      // Without a token the gateways cannot be scraped, so only the controller managers are.
      const tokenless = render({ ...pki, metrics: { serviceMonitor: { enabled: true } } });
      expect(tokenless.filter((o) => o.kind === 'ServiceMonitor').map((o) => o.metadata.name)).toEqual(['ctl-controllers']);
    });

    it('mounts a PKI Secret managed outside the chart', () => {
      const managed = render({ pki: { existingSecret: 'managed-pki' } });
      checkConsistency(managed);
      expect(managed.some((o) => o.kind === 'Secret' && o.metadata.name === 'ctl-pki')).toBe(false);
      for (const name of ['ctl-gateway', 'ctl-controllers']) {
        const volumes = find(managed, 'Deployment', name).spec.template.spec.volumes;
        expect(new Set(volumes.filter((v: Manifest) => v.secret).map((v: Manifest) => v.secret.secretName))).toEqual(new Set(['managed-pki']));
      }
    });
  });
});
