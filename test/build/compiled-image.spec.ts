// The image's contents, run as its entry point runs them (node, the compiled main.js, no
// loader): the all-in-one built by the build target's compiler, with a production-only
// node_modules, serves real kubectl. A build that cannot start, or that needs a
// devDependency or a source file at run time, fails here.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningProcess, startProcess, waitForOutput } from '@plinth/testing';
import { kubectl } from '@plinth/testing-server';
import { assembleImageTree, ImageTree } from './image-tree';

describe('the compiled all-in-one, as the image runs it', () => {
  let image: ImageTree;
  let dataDir: string;
  let plinth: RunningProcess;
  const k = (args: string[], input?: string) => kubectl(join(dataDir, 'admin.kubeconfig'), args, { input, timeoutMs: 60000 });

  beforeAll(async () => {
    image = assembleImageTree();
    dataDir = mkdtempSync(join(tmpdir(), 'plinth-image-data-'));
    // The image's ENTRYPOINT is node with its flags and its CMD the all-in-one's main.js; here on a free port.
    const env = { PATH: process.env.PATH, HOME: dataDir, NODE_ENV: 'production', NO_COLOR: '1' };
    plinth = startProcess(process.execPath, [...image.nodeFlags, 'apps/plinth/src/main.js', '--bind-address', '127.0.0.1', '--port', '0', '--data-dir', dataDir], env, { cwd: image.root });
    await waitForOutput(plinth, 'compiled plinth', /serving on https:\/\/127\.0\.0\.1:(\d+)/);
  }, 120000);

  afterAll(async () => {
    await plinth?.stop();
    image?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds compiled JavaScript and the JSON data it loads only: no sources, specs or test harness', () => {
    expect(image.entryPoints).toEqual(expect.arrayContaining(['apps/plinth/src/main.js', 'apps/gateway/src/main.js', 'apps/storage/src/main.js', 'apps/authz/src/main.js', 'apps/controllers/src/main.js']));
    expect(image.files).toEqual(expect.arrayContaining([...image.entryPoints, 'libs/machinery/src/index.js']));
    expect(image.files.filter((f) => !f.endsWith('.js'))).toEqual(['libs/apiserver/src/openapi/kube-descriptions.json']);
    expect(image.files.filter((f) => /\.spec\.|\/testing(-server)?\/|conformance/.test(f))).toEqual([]);
    expect(readdirSync(image.root).sort()).toEqual(['apps', 'libs', 'node_modules', 'package-lock.json', 'package.json']);
  });

  it('has the production dependencies and none of the development ones', () => {
    const modules = readdirSync(join(image.root, 'node_modules'));
    expect(modules).toEqual(expect.arrayContaining(['@nestjs', 'reflect-metadata', 'etcd3', 'nats', 'yaml']));
    for (const dev of ['@swc', 'typescript', 'jest', 'nx', 'eslint', 'ts-proto']) expect(modules).not.toContain(dev);
  });

  it('serves kubectl: discovery, namespaces, an applied object', async () => {
    const version = await k(['version', '-o', 'json']);
    expect(version.code).toBe(0);
    expect(JSON.parse(version.stdout).serverVersion).toMatchObject({ major: '1', minor: '28' });

    const namespaces = await k(['get', 'namespaces', '-o', 'name']);
    expect(namespaces.stdout.split('\n')).toEqual(expect.arrayContaining(['namespace/default', 'namespace/kube-system']));

    const applied = await k(['apply', '-f', '-'], 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: compiled, labels: {built: "yes"}}\n');
    expect(applied).toMatchObject({ code: 0, stderr: '', stdout: 'serviceaccount/compiled created\n' });
    expect((await k(['get', 'serviceaccount', 'compiled', '-o', 'jsonpath={.metadata.labels.built}'])).stdout).toBe('yes');
  }, 60000);

  it('runs a Job to completion through its controllers and simulated nodes', async () => {
    expect((await k(['create', 'job', 'compiled-job', '--image', 'busybox'])).code).toBe(0);
    const waited = await k(['wait', '--for=condition=complete', 'job/compiled-job', '--timeout=50s']);
    expect(waited).toMatchObject({ code: 0, stdout: 'job.batch/compiled-job condition met\n' });
  }, 60000);
});
