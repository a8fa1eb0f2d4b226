// The differential suite against the distributed Plinth, as deployed: the gateway, the storage
// service over a real etcd (gRPC, mutual TLS), authz over a real nats-server (TLS) and the
// controller manager, each its own process, one stack for every area. Every scenario is
// replayed twice, with the groups renamed (`*.platform.io`) and through the `*.k8s.io` aliases
// (replay.ts), and must answer as the recorded kube-apiserver did, as in the all-in-one.
import { DistributedPlinth, startDistributed } from '../distributed';
import { areas, replayArea } from './replay';
import { Target } from './transport';

// The controller manager runs every controller, without simulated nodes (the scenarios register
// their own Nodes).
describe('distributed', () => {
  let plinth: DistributedPlinth | undefined;
  beforeAll(async () => {
    plinth = await startDistributed({}, { controllers: ['--simulated-nodes', '0'] });
  }, 120_000);
  afterAll(() => plinth?.stop());
  const target = (): Target => {
    if (!plinth) throw new Error('the distributed Plinth starts in beforeAll');
    return { base: `https://127.0.0.1:${plinth.port}`, token: 'admin-token', ca: plinth.ca };
  };
  describe.each(areas)('differential: $area', (area) => replayArea(area, 'distributed', target));
  // Runs after every area's scenarios: none of them brought an app down.
  test('every app of the distributed Plinth still runs after the replay', () => {
    expect(plinth?.exited()).toEqual([]);
  });
});
