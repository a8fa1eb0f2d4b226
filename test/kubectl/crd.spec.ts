// CustomResourceDefinitions through the real kubectl against the all-in-one: apply a CRD, wait
// for Established, apply and list custom resources with their printer columns, see a CEL
// rule reject a resource with Kubernetes' message, explain the kind, and delete the CRD
// taking its resources along.
import { kubectl, kubectlUntil, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';

const crd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Spec
      type: string
      description: The cron spec defining the interval a CronJob is run
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: CronTab spec describes the schedule.
            x-kubernetes-validations:
            - rule: "self.replicas < 10"
              message: must be less than 10
              fieldPath: .replicas
            properties:
              cronSpec:
                type: string
                description: The cron schedule.
              image:
                type: string
              replicas:
                type: integer
          status:
            type: object
            properties:
              replicas:
                type: integer
`;

const cronTab = (name: string, replicas: number) => `
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: ${replicas}
`;

describe('custom resources through kubectl', () => {
  let plinth: PlinthProcess;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '0']);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('serves a CRD from apply to delete', async () => {
    const applied = await k(['apply', '-f', '-'], crd);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
    const waited = await k(['wait', '--for=condition=Established', '--timeout=30s', 'crd/crontabs.stable.example.com']);
    expect(waited.stdout.trim()).toBe('customresourcedefinition.apiextensions.platform.io/crontabs.stable.example.com condition met');
    expect((await k(['get', 'crd'])).stdout).toMatch(/^NAME\s+CREATED AT\ncrontabs\.stable\.example\.com\s+\d{4}-\d\d-\d\dT/);

    await kubectlUntil(plinth.kubeconfig, ['api-resources', '--api-group=stable.example.com'], /crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab/);
    const created = await k(['apply', '-f', '-'], cronTab('my-new-cron-object', 3));
    expect(created.stdout.trim()).toBe('crontab.stable.example.com/my-new-cron-object created');
    const list = (await k(['get', 'crontabs'])).stdout;
    expect(list).toMatch(/^NAME\s+SPEC\s+REPLICAS\s+AGE\nmy-new-cron-object\s+\* \* \* \* \*\/5\s+3\s+\d+s\n$/);

    const reapplied = await k(['apply', '-f', '-'], cronTab('my-new-cron-object', 4));
    expect(reapplied.stdout.trim()).toBe('crontab.stable.example.com/my-new-cron-object configured');
    const scaled = await k(['scale', 'crontab/my-new-cron-object', '--replicas=6']);
    expect(scaled.stdout.trim()).toBe('crontab.stable.example.com/my-new-cron-object scaled');
    expect((await k(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('6');

    const serverSide = await k(['apply', '--server-side', '-f', '-'], cronTab('applied-server-side', 2));
    expect(serverSide.stdout.trim()).toBe('crontab.stable.example.com/applied-server-side serverside-applied');
    const managed = JSON.parse((await k(['get', 'crontab', 'applied-server-side', '-o', 'json', '--show-managed-fields'])).stdout);
    expect(managed.metadata.managedFields[0]).toMatchObject({ manager: 'kubectl', operation: 'Apply' });

    const rejected = await k(['apply', '-f', '-'], cronTab('too-many', 12));
    expect(rejected.code).not.toBe(0);
    expect(rejected.stderr).toContain('The CronTab "too-many" is invalid: spec.replicas: Invalid value: "object": must be less than 10');

    const explained = await k(['explain', 'crontab.spec']);
    expect(explained.code).toBe(0);
    expect(explained.stdout).toContain('KIND:       CronTab');
    expect(explained.stdout).toMatch(/cronSpec\s+<string>/);

    const one = await k(['delete', 'crontab', 'applied-server-side']);
    expect(one.stdout.trim()).toBe('crontab.stable.example.com "applied-server-side" deleted');
    const deleted = await k(['delete', 'crd', 'crontabs.stable.example.com']);
    expect(deleted.stdout.trim()).toBe('customresourcedefinition.apiextensions.platform.io "crontabs.stable.example.com" deleted');
    await kubectlUntil(plinth.kubeconfig, ['get', 'crd', '-o', 'name'], /^$/);
    const gone = await k(['get', 'crontabs']);
    expect(gone.code).not.toBe(0);
    // With discovery cached from before the deletion kubectl names the 404 of the list.
    expect(gone.stderr).toMatch(/the server doesn't have a resource type "crontabs"|Unable to list "stable.example.com\/v1, Resource=crontabs": the server could not find the requested resource/);

    // The CRD took its resources along: defined again, it serves none.
    await k(['apply', '-f', '-'], crd);
    await k(['wait', '--for=condition=Established', '--timeout=30s', 'crd/crontabs.stable.example.com']);
    const listed = await eventually(() => k(['get', 'crontabs', '-A', '-o', 'name']), { until: (answer) => answer.code === 0, what: 'crontabs served again', intervalMs: 200 });
    expect(listed.stdout).toBe('');
  }, 90000);
});
