// The differential suite against the all-in-one (in the test process, a server per area, started
// with the area's server settings: server-flags.ts):
// every scenario of scenarios/*.yaml is replayed twice, with the groups renamed (`*.platform.io`)
// and through the `*.k8s.io` aliases (replay.ts); distributed.spec.ts replays them against the
// distributed form.
import { namespaceDeletionGracePeriodMs } from '@plinth/controller-manager';
import { suiteServer } from '../api/http';
import { areas, pending, replayArea } from './replay';
import { plinthFlags } from './server-flags';
import { formatErrors, pendingErrors } from './scenario';

test('every scenario file is well formed and every scenario is recorded', () => {
  const problems = [
    ...pendingErrors(pending, areas),
    ...areas.flatMap((area) => [
      ...formatErrors(area),
      ...area.scenarios.filter((s) => area.recording[s.name]?.length !== s.steps.length).map((s) => `${area.file}: "${s.name}" is not recorded (run tools/differential/record.ts)`),
    ]),
  ];
  expect(problems).toEqual([]);
  expect(areas.reduce((n, a) => n + a.scenarios.length, 0)).toBeGreaterThanOrEqual(300);
});

describe('all-in-one', () => {
  describe.each(areas)('differential: $area', (area) => {
    // The garbage collector takes off the orphan finalizer of a delete with the Orphan policy; the
    // namespace controller waits kube-controller-manager's 5 s before it empties a namespace.
    // An area of controller outcomes runs the workload controllers too (no node simulator).
    const server = suiteServer(plinthFlags(area.server), { garbageCollector: !area.controllers, workloadControllers: area.controllers, namespaceDeletionGracePeriodMs });
    replayArea(area, 'all-in-one', () => ({ base: server.url, token: 'admin-token' }));
  });
});
