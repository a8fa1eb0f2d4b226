// helm/plinth rendered without Helm (test/helm/render renders the Go-template subset the
// chart keeps to), for the default values and for overrides: every document parses as YAML and
// is a known kind, selectors select their pods, Services reach named container ports, mounts
// name existing Secrets and ConfigMaps, and arguments and environment follow the values.
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { natsBinary, findBinary } from '@plinth/testing';
import { natsPermissions } from '@plinth/authz-nats';
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
  'monitoring.coreos.com/v1': ['ServiceMonitor', 'PrometheusRule'],
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

// selects evaluates a label selector (matchLabels and In expressions) on a pod's labels.
function selects(selector: Manifest, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const byLabels = subset(selector.matchLabels ?? {}, labels);
  const byExpressions = (selector.matchExpressions ?? []).every((e: Manifest) => e.operator === 'In' && e.values.includes(labels[e.key]));
  return byLabels && byExpressions;
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
      expect(container(storage).args).toEqual(['apps/storage/src/main.js']);
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

    it("serves the storage service's and authz's metrics on their metrics ports, annotated for scraping", () => {
      const storage = find(objects, 'Deployment', 'ctl-storage');
      expect(container(storage).env).toContainEqual({ name: 'PLINTH_METRICS_BIND_ADDRESS', value: `0.0.0.0:${values.storage.metricsPort}` });
      expect(container(storage).ports).toContainEqual({ name: 'metrics', containerPort: values.storage.metricsPort });
      expect(find(objects, 'Service', 'ctl-storage').spec.ports).toContainEqual({ name: 'metrics', port: values.storage.metricsPort, targetPort: 'metrics' });
      const authz = find(objects, 'Deployment', 'ctl-authz');
      expect(argValue(authz, '--metrics-bind-address')).toBe(`0.0.0.0:${values.authz.metricsPort}`);
      expect(container(authz).ports).toEqual([{ name: 'metrics', containerPort: values.authz.metricsPort }]);
      for (const [deployment, port] of [[storage, values.storage.metricsPort], [authz, values.authz.metricsPort]]) {
        expect(deployment.spec.template.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port) });
      }
      expect(new Set([values.storage.port, values.storage.metricsPort, values.authz.metricsPort, values.controllers.metricsPort]).size).toBe(4);
    });

    it('embeds the Grafana dashboard files in a ConfigMap for the sidecar', () => {
      const dashboard = find(objects, 'ConfigMap', 'ctl-grafana-dashboard');
      expect(dashboard.metadata.labels.grafana_dashboard).toBe('1');
      expect(Object.keys(dashboard.data).sort()).toEqual(['plinth-controllers-dashboard.json', 'plinth-dashboard.json']);
      for (const file of Object.keys(dashboard.data)) expect(JSON.parse(dashboard.data[file])).toEqual(JSON.parse(readFileSync(join(root, 'deploy/grafana', file), 'utf8')));
    });

    it('provisions no Grafana data sources unless asked to', () => {
      expect(objects.some((o) => o.metadata.name === 'ctl-grafana-datasources')).toBe(false);
    });

    it('provisions Prometheus and Tempo for Grafana, exemplars opening their traces, when asked to', () => {
      const values = { prometheus: { uid: 'prom', url: 'http://prometheus:9090' }, tempo: { uid: 'traces', url: 'http://tempo:3100' } };
      const provisioned = find(render({ ...pki, grafana: { datasources: { enabled: true, ...values } } }), 'ConfigMap', 'ctl-grafana-datasources');
      expect(provisioned.metadata.labels.grafana_datasource).toBe('1');
      const { datasources } = parse(provisioned.data['plinth-datasources.yaml']);
      const prometheus = datasources.find((d: { type: string }) => d.type === 'prometheus');
      const tempo = datasources.find((d: { type: string }) => d.type === 'tempo');
      expect(prometheus).toMatchObject({ uid: 'prom', url: 'http://prometheus:9090' });
      // trace_id is the exemplar label the latency histograms carry (observeInTrace).
      expect(prometheus.jsonData.exemplarTraceIdDestinations).toEqual([{ name: 'trace_id', datasourceUid: 'traces' }]);
      expect(tempo).toMatchObject({ uid: 'traces', url: 'http://tempo:3100', jsonData: { serviceMap: { datasourceUid: 'prom' }, tracesToMetrics: { datasourceUid: 'prom' } } });
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

  describe('the links behind the gateway', () => {
    const objects = render(pki);
    const secret = find(objects, 'Secret', 'ctl-pki');
    const data = (key: string) => Buffer.from(secret.data[key], 'base64').toString('utf8');
    const certificate = (key: string) => new X509Certificate(data(key));
    const mountedFile = (workload: Manifest, path: string) => {
      const mount = container(workload).volumeMounts.find((m: Manifest) => path.startsWith(`${m.mountPath}/`));
      const volume = workload.spec.template.spec.volumes.find((v: Manifest) => v.name === mount.name);
      const item = volume.secret.items.find((i: Manifest) => i.path === path.slice(mount.mountPath.length + 1));
      return item.key as string;
    };

    it('keeps the files helm-pki-values --out-dir writes (for running by hand) under the same names', () => {
      const dir = mkdtempSync(join(tmpdir(), 'plinth-pki-files-'));
      try {
        execFileSync(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'tools/helm-pki-values.ts'), '--release', 'ctl', '--out-dir', dir], { cwd: root });
        expect(readdirSync(dir).sort()).toEqual([...Object.keys(secret.data), 'nats.conf'].sort());
        const checked = spawnSync(findBinary(natsBinary), ['-c', join(dir, 'nats.conf'), '-t'], { encoding: 'utf8' });
        expect(checked.status).toBe(0);
        expect(new X509Certificate(readFileSync(join(dir, 'gateway-storage.crt'))).verify(new X509Certificate(readFileSync(join(dir, 'internal-ca.crt'))).publicKey)).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('gives the gateway and authz their own storage client certificates and NATS users, and the storage service its serving certificate', () => {
      const internalCa = certificate('internal-ca.crt');
      for (const [name, cn, user] of [['ctl-gateway', 'plinth-gateway', 'plinth-gateway'], ['ctl-authz', 'plinth-authz', 'plinth-authz']]) {
        const w = find(objects, 'Deployment', name);
        const flag = (f: string) => argValue(w, f) ?? '';
        const client = certificate(mountedFile(w, flag('--storage-cert-file')));
        expect(client.subject).toBe(`CN=${cn}`);
        expect(client.verify(internalCa.publicKey)).toBe(true);
        expect(mountedFile(w, flag('--storage-ca-file'))).toBe('internal-ca.crt');
        expect(mountedFile(w, flag('--storage-key-file'))).toBe(`${name.slice(4)}-storage.key`);
        expect(flag('--nats-user')).toBe(user);
        expect(mountedFile(w, flag('--nats-ca-file'))).toBe('internal-ca.crt');
        expect(data(mountedFile(w, flag('--nats-password-file')))).toMatch(/^[\w-]{32}$/);
        expect(container(w).args).not.toContain('--storage-insecure');
      }
      const storage = find(objects, 'Deployment', 'ctl-storage');
      const env = envOf(storage);
      expect(env.PLINTH_ALLOWED_CLIENTS).toBe('CN=plinth-gateway,CN=plinth-authz,CN=plinth-controller-manager');
      expect(env.PLINTH_STORAGE_INSECURE).toBeUndefined();
      const serving = certificate(mountedFile(storage, env.PLINTH_TLS_CERT_FILE));
      expect(serving.subjectAltName).toContain('DNS:ctl-storage');
      expect(serving.subjectAltName).toContain('DNS:ctl-storage.plinth-system.svc');
      expect(serving.verify(internalCa.publicKey)).toBe(true);
      expect(mountedFile(storage, env.PLINTH_CLIENT_CA_FILE)).toBe('internal-ca.crt');
      // The storage service's etcd client certificate is of the etcd CA, which the members trust.
      const etcdCa = certificate('etcd-ca.crt');
      expect(certificate(mountedFile(storage, env.PLINTH_ETCD_CERTFILE)).verify(etcdCa.publicKey)).toBe(true);
      expect(certificate(mountedFile(storage, env.PLINTH_ETCD_CERTFILE)).verify(internalCa.publicKey)).toBe(false);
      expect(mountedFile(storage, env.PLINTH_ETCD_CAFILE)).toBe('etcd-ca.crt');
      expect(storage.spec.replicas).toBe(2);
    });

    it('serves etcd over TLS to clients and peers, with a certificate for every member\'s stable name', () => {
      const etcd = find(objects, 'StatefulSet', 'ctl-etcd');
      const args = container(etcd).args as string[];
      expect(args).toEqual(expect.arrayContaining(['--listen-client-urls=https://0.0.0.0:2379', '--client-cert-auth', '--peer-client-cert-auth', '--initial-cluster-state=new']));
      expect(argValue(etcd, '--initial-cluster')).toBe('ctl-etcd-0=https://ctl-etcd-0.ctl-etcd-peers.plinth-system.svc:2380');
      const names = certificate('etcd.crt').subjectAltName ?? '';
      expect(names).toContain('DNS:*.ctl-etcd-peers.plinth-system.svc');
      expect(names).toContain('DNS:ctl-etcd');
      expect(envOf(find(objects, 'Deployment', 'ctl-storage')).PLINTH_ETCD_SERVERS).toBe('https://ctl-etcd:2379');
    });

    it('configures NATS with TLS and exactly the permissions natsPermissions gives each user, in a file nats-server accepts', () => {
      for (const replicas of [1, 3]) {
        const conf = find(render({ ...pki, nats: { replicas } }), 'ConfigMap', 'ctl-nats').data['nats.conf'] as string;
        const users = Object.fromEntries(
          [...conf.matchAll(/\{user: "([^"]+)", password: \$(\w+), permissions: (\{.*\})\},?$/gm)].map(([, user, variable, permissions]) => [user, { variable, permissions: JSON.parse(permissions) }]),
        );
        const expected = natsPermissions();
        const asConfig = (p: { publish: string[]; subscribe: string[]; allowResponses: boolean }) => ({
          publish: { allow: p.publish },
          subscribe: { allow: p.subscribe },
          ...(p.allowResponses ? { allow_responses: true } : {}),
        });
        expect(users).toEqual({
          'plinth-gateway': { variable: 'NATS_GATEWAY_PASSWORD', permissions: asConfig(expected.gateway) },
          'plinth-authz': { variable: 'NATS_AUTHZ_PASSWORD', permissions: asConfig(expected.authz) },
        });
        const dir = mkdtempSync(join(tmpdir(), 'plinth-nats-conf-'));
        try {
          writeFileSync(join(dir, 'nats.crt'), data('nats.crt'));
          writeFileSync(join(dir, 'nats.key'), data('nats.key'));
          writeFileSync(join(dir, 'internal-ca.crt'), data('internal-ca.crt'));
          writeFileSync(join(dir, 'nats.conf'), conf.replace(/\/etc\/nats\/tls\//g, `${dir}/`));
          const checked = spawnSync(findBinary(natsBinary), ['-c', join(dir, 'nats.conf'), '-t'], { encoding: 'utf8', env: { NATS_GATEWAY_PASSWORD: 'a', NATS_AUTHZ_PASSWORD: 'b' } });
          expect({ status: checked.status, output: `${checked.stdout}${checked.stderr}`.trim() }).toEqual({ status: 0, output: expect.stringMatching(/configuration file .* is valid$/) });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        expect(conf.includes('cluster: {')).toBe(replicas > 1);
      }
    });

    it('rolls every pod that reads the PKI when its values change', () => {
      const checksums = (objs: Manifest[]) => Object.fromEntries(workloads(objs).map((w) => [w.metadata.name, w.spec.template.metadata.annotations['checksum/pki']]));
      const before = checksums(objects);
      const after = checksums(render({ ...pki, pki: { ...(pki.pki as object), natsAuthzPassword: 'rotated' } }));
      expect(Object.keys(before).sort()).toEqual(['ctl-authz', 'ctl-controllers', 'ctl-etcd', 'ctl-gateway', 'ctl-nats', 'ctl-node-simulator', 'ctl-storage']);
      for (const name of Object.keys(before)) {
        expect(before[name]).toMatch(/^[0-9a-f]{64}$/);
        expect(after[name]).not.toBe(before[name]);
      }
    });
  });

  describe('highly available', () => {
    const objects = render({ ...pki, etcd: { replicas: 3 }, nats: { replicas: 3 } });

    it('forms a three-member etcd cluster of stable peer names, one member per node', () => {
      checkConsistency(objects);
      const etcd = find(objects, 'StatefulSet', 'ctl-etcd');
      expect(etcd.spec.replicas).toBe(3);
      expect(etcd.spec.serviceName).toBe('ctl-etcd-peers');
      expect(find(objects, 'Service', 'ctl-etcd-peers').spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true });
      expect(argValue(etcd, '--initial-cluster')?.split(',')).toEqual([0, 1, 2].map((i) => `ctl-etcd-${i}=https://ctl-etcd-${i}.ctl-etcd-peers.plinth-system.svc:2380`));
      expect(argValue(etcd, '--initial-advertise-peer-urls')).toBe('https://$(POD_NAME).ctl-etcd-peers.plinth-system.svc:2380');
      const [required] = etcd.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution;
      expect(required.topologyKey).toBe('kubernetes.io/hostname');
      expect(subset(required.labelSelector.matchLabels, etcd.spec.template.metadata.labels)).toBe(true);
      // A drain takes one member: two of three keep the quorum.
      expect(find(objects, 'PodDisruptionBudget', 'ctl-etcd').spec.maxUnavailable).toBe(1);
    });

    it('forms a three-member NATS cluster whose members route to each other', () => {
      const conf = find(objects, 'ConfigMap', 'ctl-nats').data['nats.conf'] as string;
      expect([...conf.matchAll(/"(nats-route:\/\/[^"]+)"/g)].map((m) => m[1])).toEqual([0, 1, 2].map((i) => `nats-route://ctl-nats-${i}.ctl-nats-peers:6222`));
      // Routes are TLS both ways, with a certificate that names every member.
      expect(conf).toMatch(/cluster: \{[^]*tls: \{[^}]*ca_file: "\/etc\/nats\/tls\/internal-ca.crt"\s+verify: true/);
      const names = new X509Certificate(Buffer.from(find(objects, 'Secret', 'ctl-pki').data['nats.crt'], 'base64')).subjectAltName ?? '';
      expect(names).toContain('DNS:*.ctl-nats-peers');
      expect(names).toContain('DNS:ctl-nats.plinth-system.svc');
      expect(find(objects, 'StatefulSet', 'ctl-nats').spec.replicas).toBe(3);
    });

    it('spreads the replicas of every Plinth component over nodes', () => {
      for (const w of workloads(objects).filter((o) => o.metadata.name !== 'ctl-etcd' && o.metadata.name !== 'ctl-node-simulator')) {
        const [preferred] = w.spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
        expect(preferred.podAffinityTerm.topologyKey).toBe('kubernetes.io/hostname');
        expect(preferred.podAffinityTerm.labelSelector.matchLabels).toEqual(w.spec.selector.matchLabels);
      }
    });
  });

  describe('NetworkPolicies', () => {
    const objects = render(pki);
    const policy = (name: string) => find(objects, 'NetworkPolicy', name).spec;
    const admitted = (name: string) => {
      const spec = policy(name);
      const pods = workloads(objects).filter((w) => subset(spec.podSelector.matchLabels, w.spec.template.metadata.labels));
      expect(pods).toHaveLength(1);
      const ports = pods[0].spec.template.spec.containers[0].ports;
      return spec.ingress.map((rule: Manifest) => ({
        port: rule.ports.map((p: Manifest) => (ports.some((c: Manifest) => c.name === p.port) ? p.port : `missing ${p.port}`)).join(','),
        from: rule.from
          ? workloads(objects)
              .filter((w) => rule.from.some((peer: Manifest) => selects(peer.podSelector, w.spec.template.metadata.labels)))
              .map((w) => w.metadata.name)
              .sort()
          : 'anyone',
      }));
    };

    it('lets only gateway, authz and controller manager reach storage, only storage reach etcd, only gateway and authz reach NATS, and anyone the gateway', () => {
      expect(admitted('ctl-storage')).toEqual([
        { port: 'grpc', from: ['ctl-authz', 'ctl-controllers', 'ctl-gateway'] },
        { port: 'metrics', from: 'anyone' },
      ]);
      // The controller manager's and authz's metrics ports are open: no policy selects their pods.
      const policed = objects.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.spec.podSelector.matchLabels['app.kubernetes.io/component']);
      expect(policed).not.toContain('controllers');
      expect(policed).not.toContain('authz');
      expect(admitted('ctl-etcd')).toEqual([
        { port: 'client', from: ['ctl-storage'] },
        { port: 'peer', from: ['ctl-etcd'] },
      ]);
      expect(admitted('ctl-nats')).toEqual([
        { port: 'client', from: ['ctl-authz', 'ctl-gateway'] },
        { port: 'route', from: ['ctl-nats'] },
      ]);
      expect(admitted('ctl-gateway')).toEqual([{ port: 'https', from: 'anyone' }]);
      for (const name of ['ctl-storage', 'ctl-etcd', 'ctl-nats', 'ctl-gateway']) expect(policy(name).policyTypes).toEqual(['Ingress']);
    });

    it('are left out when networkPolicy.enabled is false, and for an external etcd or NATS', () => {
      expect(render({ ...pki, networkPolicy: { enabled: false } }).some((o) => o.kind === 'NetworkPolicy')).toBe(false);
      const external = render({ ...pki, etcd: { external: { endpoints: 'https://e:2379' } }, nats: { external: { url: 'tls://n:4222' } } });
      expect(external.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.metadata.name)).toEqual(['ctl-storage', 'ctl-gateway']);
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

    it('adds ServiceMonitors for the gateways (HTTPS, the token, the cluster CA), the storage service, authz and the controller managers', () => {
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
      for (const name of ['ctl-storage', 'ctl-authz', 'ctl-controllers']) {
        const monitor = find(monitored, 'ServiceMonitor', name);
        expect(monitor.metadata.labels.release).toBe('kube-prometheus');
        expect(monitor.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s' }]);
      }
      expect(find(monitored, 'Service', 'ctl-authz-metrics').spec).toMatchObject({ clusterIP: 'None', ports: [{ name: 'metrics', targetPort: 'metrics' }] });
      // Without a token the gateways cannot be scraped, so only the metrics ports are.
      const tokenless = render({ ...pki, metrics: { serviceMonitor: { enabled: true } } });
      expect(tokenless.filter((o) => o.kind === 'ServiceMonitor').map((o) => o.metadata.name)).toEqual(['ctl-controllers', 'ctl-storage', 'ctl-authz']);
    });

    it('adds the alert rules file as a PrometheusRule when asked', () => {
      expect(render(pki).some((o) => o.kind === 'PrometheusRule')).toBe(false);
      const alerting = render({ ...pki, metrics: { prometheusRule: { enabled: true, labels: { release: 'kube-prometheus' } } } });
      checkConsistency(alerting);
      const rule = find(alerting, 'PrometheusRule', 'ctl-alerts');
      expect(rule.metadata.labels).toMatchObject({ release: 'kube-prometheus', 'app.kubernetes.io/instance': 'ctl' });
      expect(rule.spec).toEqual(parse(readFileSync(join(root, 'deploy/prometheus/plinth-alerts.yaml'), 'utf8')));
      expect(rule.spec.groups.flatMap((g: Manifest) => g.rules.map((r: Manifest) => r.alert))).toContain('PlinthStorageLinkDown');
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
