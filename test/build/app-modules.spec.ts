// Each app loads only the libraries of its own part: the storage service none of the API
// server's, the all-in-one's main thread none of the controllers' and its worker thread none of
// the API server's, authz none of the API server's or the controllers' (of the registry, the RBAC
// definitions only: not CEL), no app the OpenTelemetry SDK while it exports no traces. Every module loaded is resident for the process's life (about
// 30 MiB of RSS for the storage service before this held). An app is started with a flag it
// refuses, so it exits (2) once its imports are loaded and before it starts anything.
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';

const root = join(__dirname, '../..');

// loadedModules runs an app's main.ts (or another of its modules, which then exits 0 once loaded).
function loadedModules(app: string, entry = 'main.ts'): string[] {
  const run = spawnSync(process.execPath, ['-r', join(root, 'tools/register.js'), '-r', join(__dirname, 'testdata/report-loaded-modules.js'), join(root, `apps/${app}/src/${entry}`), '--no-such-flag'], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
  });
  expect(run.status).toBe(entry === 'main.ts' ? 2 : 0);
  const line = run.stderr.split('\n').find((l) => l.startsWith('loaded modules: '));
  if (!line) throw new Error(`${app} reported no modules: ${run.stderr}`);
  return (JSON.parse(line.slice('loaded modules: '.length)) as string[]).map((file) => relative(root, file));
}

// loads tells which of the given libraries (libs/<name>), packages (node_modules/<name>) and
// files an app loaded.
function loads(modules: string[], names: string[]): string[] {
  return names.filter((name) => modules.some((file) => file === name || file.startsWith(`${name}/`)));
}

const apiServerParts = ['libs/apiserver', 'libs/kube-apiserver', 'libs/registry', 'libs/cel', 'libs/patch', 'libs/authn', 'libs/pki'];
const controllerParts = ['libs/controller-manager', 'libs/controllers', 'libs/node-simulator'];
const traceExport = ['node_modules/@opentelemetry/sdk-trace-base', 'node_modules/@opentelemetry/exporter-trace-otlp-http'];

describe('what each app loads at start', () => {
  it('storage: its store and gRPC service, nothing of the API server, authz or the controllers', () => {
    const modules = loadedModules('storage');
    expect(loads(modules, ['libs/storage', 'libs/storage-etcd', 'libs/storage-grpc', 'node_modules/etcd3'])).toHaveLength(4);
    expect(loads(modules, [...apiServerParts, ...controllerParts, ...traceExport, 'libs/authz', 'libs/authz-nats', 'libs/rbac', 'node_modules/nats'])).toEqual([]);
  });

  it('authz: RBAC over NATS, nothing of the API server or the controllers', () => {
    const modules = loadedModules('authz');
    expect(loads(modules, ['libs/authz', 'libs/authz-nats', 'libs/rbac', 'libs/registry/src/rbac.ts', 'node_modules/nats'])).toHaveLength(5);
    const registryIndex = 'libs/registry/src/index.ts';
    expect(loads(modules, ['libs/apiserver', 'libs/kube-apiserver', registryIndex, 'libs/cel', 'libs/patch', 'libs/authn', 'libs/pki', ...controllerParts, ...traceExport, 'libs/storage-etcd', 'node_modules/etcd3'])).toEqual([]);
  });

  it('all-in-one: the API server in its main thread, nothing of the controllers; its worker thread the controllers, nothing of the API server', () => {
    const main = loadedModules('plinth');
    expect(loads(main, ['libs/apiserver', 'libs/kube-apiserver', 'libs/storage'])).toHaveLength(3);
    expect(loads(main, [...controllerParts, ...traceExport, 'libs/storage-etcd', 'node_modules/etcd3'])).toEqual([]);
    const worker = loadedModules('plinth', 'controllers-worker.module.ts');
    expect(loads(worker, controllerParts)).toHaveLength(3);
    expect(loads(worker, [...apiServerParts, ...traceExport, 'libs/storage', 'libs/rbac'])).toEqual([]);
  });

  it('gateway: the API server, nothing of the controllers or of etcd', () => {
    const modules = loadedModules('gateway');
    expect(loads(modules, ['libs/apiserver', 'libs/kube-apiserver', 'libs/storage-grpc', 'libs/authz-nats'])).toHaveLength(4);
    expect(loads(modules, [...controllerParts, ...traceExport, 'libs/storage-etcd', 'node_modules/etcd3'])).toEqual([]);
  });
});
