// The differential suite against the distributed Plinth, as deployed: the gateway, the storage
// service over a real etcd (gRPC, mutual TLS), authz over a real nats-server (TLS) and the
// controller manager, each its own process, one stack for every area with default flags and one
// for each area with server settings (its gateway started with them). Every scenario is
// replayed twice, with the groups renamed (`*.platform.io`) and through the `*.k8s.io` aliases
// (replay.ts), and must answer as the recorded kube-apiserver did, as in the all-in-one.
import { DistributedPlinth, startDistributed } from '../distributed';
import { areas, replayArea } from './replay';
import { plinthCommandLine } from './server-flags';
import { Target } from './transport';

// distributedStack runs a distributed Plinth for the enclosing describe block. Its controller
// manager runs
// without simulated nodes (the scenarios register their own Nodes), and every controller unless
// an area's settings turn groups off: then the controllers every scenario needs (namespaces,
// their default ServiceAccounts, the garbage collector), whose informers read only groups an
// area leaves on; with the area's feature gates. A stack takes about 45 s to start on a quiet machine, minutes on a loaded one.
function distributedStack(gatewayFlags: string[] = []): { target: () => Target; exited: () => string[] | undefined } {
  let plinth: DistributedPlinth | undefined;
  const controllers = gatewayFlags.some((f) => f.startsWith('--runtime-config=')) ? ['--controllers=namespace,serviceaccount,garbagecollector'] : [];
  // The controllers read the feature gates the gateway serves with (the Job controller's).
  const featureGates = gatewayFlags.filter((f) => f.startsWith('--feature-gates='));
  beforeAll(async () => {
    plinth = await startDistributed({}, { gateway: gatewayFlags, controllers: ['--simulated-nodes', '0', ...featureGates, ...controllers] });
  }, 300_000);
  afterAll(() => plinth?.stop());
  const target = (): Target => {
    if (!plinth) throw new Error('the distributed Plinth starts in beforeAll');
    return { base: `https://127.0.0.1:${plinth.port}`, token: 'admin-token', ca: plinth.ca };
  };
  return { target, exited: () => plinth?.exited() };
}

// stillRunning runs after the scenarios declared before it: none of them brought an app down.
function stillRunning(stack: ReturnType<typeof distributedStack>): void {
  test('every app of the distributed Plinth still runs after the replay', () => {
    expect(stack.exited()).toEqual([]);
  });
}

describe('distributed', () => {
  const stack = distributedStack();
  describe.each(areas.filter((area) => !area.server))('differential: $area', (area) => replayArea(area, 'distributed', stack.target));
  stillRunning(stack);
  describe.each(areas.filter((area) => area.server))('differential: $area', (area) => {
    const own = distributedStack(plinthCommandLine(area.server));
    replayArea(area, 'distributed', own.target);
    stillRunning(own);
  });
});
