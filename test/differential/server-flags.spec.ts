// An area's server settings as each server's flags: kube-apiserver's with Kubernetes' group
// names and the real server's own flags, Plinth's with its group names, read by its own parser.
import { kubeApiserverFlags, plinthCommandLine, plinthFlags } from './server-flags';
import { formatErrors } from './scenario';

const settings = {
  runtimeConfig: { 'api/all': false, 'batch/v1': true, 'rbac.authorization.k8s.io/v1': true, 'apps/v1/daemonsets': false },
  featureGates: { JobPodFailurePolicy: true, APIListChunking: false },
  kubeApiserverOnly: ['--enable-priority-and-fairness=false'],
};

test('kube-apiserver gets the settings as written and its own flags', () => {
  expect(kubeApiserverFlags(settings)).toEqual([
    '--runtime-config=api/all=false,batch/v1=true,rbac.authorization.k8s.io/v1=true,apps/v1/daemonsets=false',
    '--feature-gates=JobPodFailurePolicy=true,APIListChunking=false',
    '--enable-priority-and-fairness=false',
  ]);
  expect(kubeApiserverFlags()).toEqual([]);
});

test("Plinth gets them with its group names, parsed by its own flag parser, and not the real server's own", () => {
  expect(plinthCommandLine(settings)).toEqual([
    '--runtime-config=api/all=false,batch/v1=true,rbac.authorization.platform.io/v1=true,apps/v1/daemonsets=false',
    '--feature-gates=JobPodFailurePolicy=true,APIListChunking=false',
  ]);
  expect(plinthFlags(settings)).toEqual({
    runtimeConfig: 'api/all=false,batch/v1=true,rbac.authorization.platform.io/v1=true,apps/v1/daemonsets=false',
    featureGates: 'JobPodFailurePolicy=true,APIListChunking=false',
  });
  expect(plinthFlags()).toEqual({});
});

test('an unknown server setting is a format error', () => {
  const area = { area: 'a', file: 'a.yaml', server: { runtimeConfig: {}, flags: ['--x'] } as never, scenarios: [{ name: 's', steps: [{ request: 'GET /api' }] }] };
  expect(formatErrors(area)).toEqual(['a.yaml: server: unknown key flags']);
});
