// Every combination of helm/plinth's values that the chart supports (single and HA, the links'
// TLS on, external etcd with and without TLS, external NATS, the optional parts on and off, a
// PKI Secret managed elsewhere) renders manifests that Kubernetes 1.28 accepts: each is checked
// against the published OpenAPI of 1.28 (its swagger.json, the definitions the chart's kinds
// need, in testdata/) with strict field validation. ServiceMonitor is a Prometheus Operator
// CRD, not a Kubernetes kind: it is the only kind without a schema. The validator itself is
// shown to refuse what the API server refuses.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { definitionOf, OpenApiDocument, validateAgainstOpenApi } from './openapi-validate';
import { renderChart } from './render/chart';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Manifest = any;

const root = join(__dirname, '../..');
const release = { name: 'ctl', namespace: 'plinth-system' };
const openApi = JSON.parse(readFileSync(join(__dirname, 'testdata/k8s-1.28-openapi.json'), 'utf8')) as OpenApiDocument;

const pki = parse(
  execFileSync(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'tools/helm-pki-values.ts'), '--release', release.name, '--namespace', release.namespace], { cwd: root, encoding: 'utf8' }),
) as Record<string, unknown>;

function render(values: Record<string, unknown>): Manifest[] {
  const { manifests } = renderChart(join(root, 'helm/plinth'), { ...release, values });
  return [...manifests.values()].flatMap((text) => parseAllDocuments(text).map((doc) => doc.toJS())).filter((o) => o !== null);
}

const combinations: Record<string, Record<string, unknown>> = {
  'single members, every link TLS (the defaults)': pki,
  'HA: three etcd members, three NATS members, three storage replicas': { ...pki, etcd: { replicas: 3 }, nats: { replicas: 3 }, storage: { replicas: 3 } },
  'external etcd over TLS': { ...pki, etcd: { external: { endpoints: 'https://etcd-a:2379,https://etcd-b:2379' } } },
  'external plaintext etcd': { ...pki, etcd: { external: { endpoints: 'http://etcd:2379', tls: false } } },
  'external NATS': { ...pki, nats: { external: { url: 'tls://nats.messaging:4222' } } },
  'external etcd and NATS, traces, metrics and ServiceMonitors, no simulator or dashboard': {
    ...pki,
    etcd: { external: { endpoints: 'https://etcd:2379' } },
    nats: { external: { url: 'tls://nats:4222' } },
    otel: { endpoint: 'http://otel-collector.observability:4318', extraEnv: [{ name: 'OTEL_TRACES_SAMPLER', value: 'always_on' }] },
    metrics: { token: 'scrape-me', serviceMonitor: { enabled: true, labels: { release: 'prometheus' } } },
    nodeSimulator: { nodes: 0 },
    grafana: { dashboard: { enabled: false }, datasources: { enabled: true } },
    podAnnotations: { team: 'platform' },
  },
  'no NetworkPolicies, no PodDisruptionBudgets': { ...pki, networkPolicy: { enabled: false }, podDisruptionBudgets: false },
  'a PKI Secret managed elsewhere, HA': { pki: { existingSecret: 'managed-pki' }, etcd: { replicas: 3 }, nats: { replicas: 3 } },
};

describe('helm/plinth against the Kubernetes 1.28 OpenAPI', () => {
  it.each(Object.entries(combinations))('renders only valid objects: %s', (_name, values) => {
    const objects = render(values);
    expect(objects.length).toBeGreaterThan(10);
    for (const object of objects) {
      const definition = definitionOf(openApi, object.apiVersion, object.kind);
      if (object.kind === 'ServiceMonitor') {
        expect(definition).toBeUndefined();
        continue;
      }
      expect({ object: `${object.kind}/${object.metadata.name}`, definition }).toEqual({ object: `${object.kind}/${object.metadata.name}`, definition: expect.any(String) });
      expect({ object: `${object.kind}/${object.metadata.name}`, problems: validateAgainstOpenApi(openApi, definition!, object) }).toEqual({
        object: `${object.kind}/${object.metadata.name}`,
        problems: [],
      });
    }
  });

  it('covers every kind the chart renders', () => {
    const kinds = new Set(Object.values(combinations).flatMap((values) => render(values).map((o) => `${o.apiVersion} ${o.kind}`)));
    expect([...kinds].sort()).toEqual([
      'apps/v1 Deployment',
      'apps/v1 StatefulSet',
      'monitoring.coreos.com/v1 ServiceMonitor',
      'networking.k8s.io/v1 NetworkPolicy',
      'policy/v1 PodDisruptionBudget',
      'v1 ConfigMap',
      'v1 Secret',
      'v1 Service',
      'v1 ServiceAccount',
    ]);
  });

  it('refuses what the API server refuses: unknown fields, wrong types, missing required fields', () => {
    const deployment = render(pki).find((o) => o.kind === 'Deployment' && o.metadata.name === 'ctl-gateway');
    const definition = definitionOf(openApi, 'apps/v1', 'Deployment')!;
    const broken = structuredClone(deployment);
    broken.spec.replica = 2;
    broken.spec.template.spec.containers[0].ports[0].containerPort = '7443';
    delete broken.spec.selector;
    broken.spec.template.spec.containers[0].readinessProbe.httpGet.port = true;
    expect(validateAgainstOpenApi(openApi, definition, broken).sort()).toEqual([
      '.spec.replica: unknown field',
      '.spec.selector: required',
      '.spec.template.spec.containers[0].ports[0].containerPort: "7443" is not an integer',
      '.spec.template.spec.containers[0].readinessProbe.httpGet.port: true is not an integer or a string',
    ]);
    expect(definitionOf(openApi, 'apps/v1beta1', 'Deployment')).toBeUndefined();
  });
});
