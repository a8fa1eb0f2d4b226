// Runs the real kubectl (1.32, $KUBECTL or /usr/bin/kubectl) against the OpenAPI documents of a
// small catalog: explain through OpenAPI v3 and through the v2 protobuf, server-side field
// validation detected from the PATCH operation, and strategic merge patch built from the v3
// schemas.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResourceCatalog } from '@plinth/registry';
import { clusterRoleDefinition, configMapDefinition, jobDefinition } from './test-definitions';
import { OpenApiTestServer, startOpenApiTestServer } from './test-server';

const kubectlBinary = process.env.KUBECTL ?? '/usr/bin/kubectl';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

describe('kubectl against the OpenAPI documents', () => {
  beforeAll(() => {
    // A missing kubectl fails the suite: install it (Debian kubernetes-client or the upstream binary).
    if (!existsSync(kubectlBinary)) throw new Error(`kubectl not found at ${kubectlBinary}`);
  });

  let server: OpenApiTestServer;
  let dir: string;
  const patches: { contentType: string; body: string }[] = [];
  const role = {
    apiVersion: 'rbac.authorization.platform.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'reader', annotations: {} as Record<string, string> },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
  };

  // kubectl runs with a fresh cache directory per call, so each run fetches the documents.
  const kubectl = (args: string[], input = ''): Promise<Result> =>
    new Promise((resolve, reject) => {
      const cache = mkdtempSync(join(dir, 'cache-'));
      const child = spawn(kubectlBinary, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { env: { ...process.env, KUBECACHEDIR: cache } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(input);
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-kubectl-'));
    role.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = JSON.stringify({ ...role, metadata: { name: 'reader' } });
    const catalog = new ResourceCatalog([jobDefinition, clusterRoleDefinition, configMapDefinition]);
    server = await startOpenApiTestServer(catalog, (req, res, body) => {
      const reply = (code: number, value: unknown) => {
        res.statusCode = code;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify(value));
        return true;
      };
      if (req.url?.startsWith('/apis/rbac.authorization.platform.io/v1/clusterroles/reader')) {
        if (req.method === 'PATCH') patches.push({ contentType: String(req.headers['content-type']), body: body.toString() });
        return reply(200, role);
      }
      return reply(404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', message: 'not found', code: 404 });
    });
    writeFileSync(
      join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'test', cluster: { server: server.url } }],
        contexts: [{ name: 'test', context: { cluster: 'test', user: 'test' } }],
        users: [{ name: 'test', user: {} }],
        'current-context': 'test',
      }),
    );
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('explains a kind and its fields from OpenAPI v3', async () => {
    const job = await kubectl(['explain', 'jobs']);
    expect(job.stderr).toBe('');
    expect(job.stdout).toMatch(/GROUP:\s+batch\nKIND:\s+Job\nVERSION:\s+v1/);
    expect(job.stdout).toContain('Job represents the configuration of a single job.');
    expect(job.stdout).toMatch(/spec\t<JobSpec>\n\s+Specification of the desired behavior of a job\. More info:/);

    const ports = await kubectl(['explain', 'jobs.spec.template.spec.containers.ports']);
    expect(ports.stdout).toContain('FIELD: ports <[]ContainerPort>');
    expect(ports.stdout).toMatch(/containerPort\t<integer> -required-/);

    const rules = await kubectl(['explain', 'clusterroles.rules']);
    expect(rules.stdout).toMatch(/GROUP:\s+rbac\.authorization\.platform\.io\nKIND:\s+ClusterRole/);
    expect(rules.stdout).toContain('FIELD: rules <[]PolicyRule>');

    const recursive = await kubectl(['explain', 'configmaps', '--recursive']);
    expect(recursive.stdout).toMatch(/data\t<map\[string\]string>/);
    expect(recursive.stdout).toMatch(/ownerReferences\t<\[\]OwnerReference>/);

    const missing = await kubectl(['explain', 'jobs.spec.nope']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('field "nope" does not exist');
  });

  it('explains from the OpenAPI v2 protobuf', async () => {
    const before = server.requests.length;
    const spec = await kubectl(['explain', 'jobs.spec', '--output', 'plaintext-openapiv2']);
    expect(spec.stderr).toBe('');
    expect(spec.stdout).toMatch(/KIND:\s+Job\nVERSION:\s+batch\/v1/);
    expect(spec.stdout).toContain('JobSpec describes how the job execution will look like.');
    expect(spec.stdout).toMatch(/template\t<Object> -required-/);
    expect(server.requests.slice(before)).toContain('GET /openapi/v2');
  });

  it('leaves validation to the server when the PATCH operation offers fieldValidation', async () => {
    const before = server.requests.length;
    const manifest = JSON.stringify({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'default' },
      spec: { bogus: 1, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const created = await kubectl(['create', '--validate=strict', '--dry-run=client', '-f', '-'], manifest);
    // Client-side validation would have refused spec.bogus; it is skipped, and v2 never fetched.
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('job.batch/j created (dry run)');
    const fetched = server.requests.slice(before);
    expect(fetched).toContain('GET /openapi/v3/apis/batch/v1');
    expect(fetched).not.toContain('GET /openapi/v2');
  });

  it('builds a strategic merge patch from the v3 schemas for a kind kubectl does not know', async () => {
    const before = server.requests.length;
    const applied = { ...role, metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] };
    const result = await kubectl(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(applied));
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('clusterrole.rbac.authorization.platform.io/reader configured (server dry run)');
    expect(patches).toHaveLength(1);
    expect(patches[0].contentType).toBe('application/strategic-merge-patch+json');
    expect(JSON.parse(patches[0].body)).toMatchObject({ rules: [{ verbs: ['get', 'list'] }] });
    expect(server.requests.slice(before)).not.toContain('GET /openapi/v2');
  });
});
