// A manifest set written for Kubernetes (testdata/kubernetes-manifests: k8s.io groups, RBAC
// roles and bindings, a Job, a DaemonSet, a CustomResourceDefinition and one of its resources)
// through the real kubectl against the all-in-one: `kubectl apply -f dir/`, `kubectl diff -f
// dir/` and `kubectl delete -f dir/` answer as they do against kube-apiserver 1.28 (checked
// against it). kubectl maps every object of a set before it applies any, so, as with
// Kubernetes, the first apply cannot map the custom resource whose definition it creates, and a
// second apply creates it. kubectl deletes in file order: the resource's file sorts before its
// definition's, whose deletion would take the resource along.
import { join } from 'node:path';
import { kubectl, kubectlUntil, PlinthProcess, startPlinth } from '@plinth/testing-server';

const manifests = join(__dirname, 'testdata', 'kubernetes-manifests');

describe('a Kubernetes manifest set through kubectl apply, diff and delete', () => {
  let plinth: PlinthProcess;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input, timeoutMs: 60000 });

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '2']);
    await k(['create', 'namespace', 'shop']);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('applies, diffs clean and deletes cleanly', async () => {
    const first = await k(['apply', '-f', manifests]);
    expect(first.code).toBe(1);
    expect(first.stdout.trim().split('\n')).toEqual([
      'serviceaccount/reporter created',
      'role.rbac.authorization.k8s.io/job-reader created',
      'rolebinding.rbac.authorization.k8s.io/reporter-reads-jobs created',
      'clusterrole.rbac.authorization.k8s.io/shop-widget-viewer created',
      'clusterrolebinding.rbac.authorization.k8s.io/shop-reporter-views-widgets created',
      'job.batch/nightly-report created',
      'daemonset.apps/log-agent created',
      'customresourcedefinition.apiextensions.k8s.io/widgets.shop.example.com created',
    ]);
    expect(first.stderr).toContain(
      `error: resource mapping not found for name: "first-widget" namespace: "shop" from "${join(manifests, '40-first-widget.yaml')}": no matches for kind "Widget" in version "shop.example.com/v1"`,
    );

    await k(['wait', '--for=condition=Established', '--timeout=30s', 'crd/widgets.shop.example.com']);
    const second = await k(['apply', '-f', manifests]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout.trim().split('\n')).toEqual([
      'serviceaccount/reporter unchanged',
      'role.rbac.authorization.k8s.io/job-reader unchanged',
      'rolebinding.rbac.authorization.k8s.io/reporter-reads-jobs unchanged',
      'clusterrole.rbac.authorization.k8s.io/shop-widget-viewer unchanged',
      'clusterrolebinding.rbac.authorization.k8s.io/shop-reporter-views-widgets unchanged',
      'job.batch/nightly-report unchanged',
      'daemonset.apps/log-agent unchanged',
      'widget.shop.example.com/first-widget created',
      'customresourcedefinition.apiextensions.k8s.io/widgets.shop.example.com unchanged',
    ]);
    // The workloads run (simulated) and settle; the custom resource got its schema's default.
    expect((await k(['wait', '-n', 'shop', '--for=condition=Complete', '--timeout=45s', 'job/nightly-report'])).code).toBe(0);
    expect((await k(['rollout', 'status', '-n', 'shop', '--timeout=45s', 'daemonset/log-agent'])).stdout).toContain('daemon set "log-agent" successfully rolled out');
    expect((await k(['get', 'widget', 'first-widget', '-n', 'shop', '-o', 'jsonpath={.spec.size}'])).stdout).toBe('1');

    const diff = await k(['diff', '-f', manifests]);
    expect({ code: diff.code, stdout: diff.stdout, stderr: diff.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });

    const deleted = await k(['delete', '-f', manifests]);
    expect(deleted.stderr).toBe('');
    expect(deleted.code).toBe(0);
    expect(deleted.stdout.trim().split('\n')).toEqual([
      'serviceaccount "reporter" deleted',
      'role.rbac.authorization.k8s.io "job-reader" deleted',
      'rolebinding.rbac.authorization.k8s.io "reporter-reads-jobs" deleted',
      'clusterrole.rbac.authorization.k8s.io "shop-widget-viewer" deleted',
      'clusterrolebinding.rbac.authorization.k8s.io "shop-reporter-views-widgets" deleted',
      'job.batch "nightly-report" deleted',
      'daemonset.apps "log-agent" deleted',
      'widget.shop.example.com "first-widget" deleted',
      'customresourcedefinition.apiextensions.k8s.io "widgets.shop.example.com" deleted',
    ]);
    // kubectl delete waited for each object to be gone; the pods follow their owners.
    const left = await k(['get', 'serviceaccount/reporter', 'role/job-reader', 'rolebinding/reporter-reads-jobs', 'job/nightly-report', 'daemonset/log-agent', '-n', 'shop', '--ignore-not-found', '-o', 'name']);
    expect(left.stdout).toBe('');
    const clusterScoped = await k(['get', 'clusterrole/shop-widget-viewer', 'clusterrolebinding/shop-reporter-views-widgets', 'crd/widgets.shop.example.com', '--ignore-not-found', '-o', 'name']);
    expect(clusterScoped.stdout).toBe('');
    await kubectlUntil(plinth.kubeconfig, ['get', 'pods', '-n', 'shop', '-o', 'name'], /^$/);
  }, 180000);
});
