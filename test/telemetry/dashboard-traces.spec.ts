// The TraceQL of the Grafana dashboards (Tempo panels and the links from panels to their
// traces) names only what the code records: every span name and span attribute it filters or
// selects on is one that spans recorded here carry, and every service name one the apps export
// under. The spans come from the real code: an API server in this process over a real etcd
// (request, handler and etcd client spans) and the Job controller syncing a Job (sync and
// client spans), all into the in-memory exporter.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient, setRequestInstrumentation, setSyncInstrumentation } from '@plinth/client';
import { JobController } from '@plinth/controller-manager';
import { isStatusError, realClock } from '@plinth/machinery';
import { clientSpans, syncSpans } from '@plinth/nest';
import { EtcdObjectStore } from '@plinth/storage-etcd';
import { EtcdServer, startEtcd, eventually, inMemoryTracing } from '@plinth/testing';
import { TestApiServer, startTestApiServer, testTokens } from '@plinth/testing-server';
import { Dashboard, dashboardFiles, traceQueries, withSampleValues } from '../helm/dashboards';

const root = join(__dirname, '../..');

// exportedServices are the service.name each app exports its spans under (startTracing's
// argument in its main.ts).
function exportedServices(): string[] {
  return readdirSync(join(root, 'apps')).flatMap((app) => [...readFileSync(join(root, 'apps', app, 'src/main.ts'), 'utf8').matchAll(/startTracing\('([^']+)'\)/g)].map((m) => m[1]));
}

// namedIn reads what a TraceQL expression names: span attributes (span.a.b, span."a"), span
// names (name = or =~) and service names (resource.service.name = or =~).
function namedIn(query: string): { attributes: string[]; names: { op: string; value: string }[]; services: { op: string; value: string }[] } {
  return {
    attributes: [...query.matchAll(/\bspan\.(?:"([^"]+)"|([a-zA-Z_][\w.]*))/g)].map((m) => m[1] ?? m[2]),
    names: [...query.matchAll(/(?<![.\w])name\s*(=~|=)\s*"([^"]*)"/g)].map((m) => ({ op: m[1], value: m[2] })),
    services: [...query.matchAll(/resource\.service\.name\s*(=~|=)\s*"([^"]*)"/g)].map((m) => ({ op: m[1], value: m[2] })),
  };
}

// matches tells whether a TraceQL comparison holds for one of the values: equality, or a regex
// that matches whole (as Tempo anchors it); a regex of plain alternatives must match with each.
function matches(op: string, pattern: string, values: string[]): boolean {
  if (op === '=') return values.includes(pattern);
  if (/^[\w -]+(\|[\w -]+)*$/.test(pattern)) return pattern.split('|').every((alternative) => values.includes(alternative));
  const regex = new RegExp(`^(?:${pattern})$`);
  return values.some((v) => regex.test(v));
}

describe('the names the dashboards look for in traces', () => {
  const tracing = inMemoryTracing();
  const { exporter } = tracing;
  let etcd: EtcdServer;
  let store: EtcdObjectStore;
  let server: TestApiServer;
  let client: ApiClient;
  let jobs: JobController;

  beforeAll(async () => {
    tracing.install();
    setRequestInstrumentation(clientSpans);
    setSyncInstrumentation(syncSpans);
    etcd = await startEtcd();
    store = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
    server = await startTestApiServer({}, { store });
    client = new ApiClient({ server: server.url, caPem: '', token: testTokens.admin });
    jobs = new JobController(client, realClock);
    await jobs.start();
  }, 60000);

  afterAll(async () => {
    await jobs?.stop();
    client?.close();
    await server?.stop();
    await store?.close();
    await etcd?.stop();
    setRequestInstrumentation(null);
    setSyncInstrumentation(null);
    tracing.uninstall();
  });

  it('are recorded by the code', async () => {
    await client.create('/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'named' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    await client.get('/api/v1/namespaces/default/pods/missing').catch((err: unknown) => expect(isStatusError(err) && err.code).toBe(404));
    await eventually(() => exporter.getFinishedSpans().some((s) => s.name === 'sync job' && s.attributes['workqueue.key'] === 'default/named'), { what: 'the Job synced' });
    const spans = exporter.getFinishedSpans();
    const spanNames = [...new Set(spans.map((s) => s.name))];
    const attributes = [...new Set(spans.flatMap((s) => Object.keys(s.attributes)))];
    const services = exportedServices();
    expect(services.sort()).toEqual(['plinth', 'plinth-authz', 'plinth-controllers', 'plinth-gateway', 'plinth-storage']);

    const checked = { attributes: new Set<string>(), names: new Set<string>(), services: new Set<string>() };
    for (const file of dashboardFiles) {
      const dashboard: Dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana', file), 'utf8'));
      for (const { panel, query } of traceQueries(dashboard)) {
        const named = namedIn(withSampleValues(query));
        const where = `${file}: ${panel}`;
        named.attributes.forEach((a) => checked.attributes.add(a));
        named.names.forEach((n) => checked.names.add(n.value));
        named.services.forEach((n) => checked.services.add(n.value));
        for (const attribute of named.attributes) expect({ where, attribute, recorded: attributes.includes(attribute) }).toEqual({ where, attribute, recorded: true });
        for (const { op, value } of named.names) expect({ where, name: value, recorded: matches(op, value, spanNames) }).toEqual({ where, name: value, recorded: true });
        for (const { op, value } of named.services) expect({ where, service: value, exported: matches(op, value, services) }).toEqual({ where, service: value, exported: true });
      }
    }
    // A RED panel's link finds the handler span of its series: the verb label's value (LIST)
    // and resource (pods) as the metric labels them.
    expect(spans.some((s) => s.attributes.verb === 'LIST' && s.attributes.resource === 'pods')).toBe(true);
    // What the dashboards name, so that a reader sees what this test held them to.
    expect([...checked.attributes].sort()).toEqual(['db.system', 'etcd.key', 'etcd.response.revision', 'http.method', 'http.status_code', 'http.target', 'resource', 'rpc.method', 'verb', 'workqueue.key']);
    expect([...checked.names].sort()).toEqual(['sync (job|daemonset)', 'sync .*', 'sync job']);
    expect(checked.services.size).toBeGreaterThanOrEqual(4);
  }, 60000);

  it('reads the names out of TraceQL', () => {
    expect(namedIn('{ resource.service.name =~ "plinth|plinth-gateway" && name = "sync job" && span."resource" = "pods" } > { span.http.status_code >= 500 } | select(span.etcd.key)')).toEqual({
      attributes: ['resource', 'http.status_code', 'etcd.key'],
      names: [{ op: '=', value: 'sync job' }],
      services: [{ op: '=~', value: 'plinth|plinth-gateway' }],
    });
    expect(matches('=~', 'plinth|plinth-gateway', ['plinth', 'plinth-gateway'])).toBe(true);
    expect(matches('=~', 'plinth|plinth-api', ['plinth', 'plinth-gateway'])).toBe(false);
    expect(matches('=~', 'sync .*', ['sync job'])).toBe(true);
  });
});
