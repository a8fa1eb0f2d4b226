// The differential suite: every scenario of scenarios/*.yaml is replayed against Plinth in both
// its forms, the all-in-one (in the test process) and the distributed one (the gateway, storage
// over a real etcd, authz over a real nats-server and the controller manager, each its own
// process), and in each twice, with the groups renamed (`*.platform.io`) and through the
// `*.k8s.io` aliases. Each answer is compared field by field with what a real kube-apiserver 1.28
// answered (the recording beside the scenario file), or with the documented answer of a `known`
// scenario.
import { suiteServer } from '../api/http';
import { DistributedPlinth, startDistributed } from '../distributed';
import { diffAnswers } from './compare';
import { expectedAnswer, Naming, runScenario } from './run';
import { Answer, AreaFile, areaFiles, Form, formatErrors, loadArea, loadPending, loadRecording, pendingErrors, pendingReason, Recording, Scenario } from './scenario';
import { Target } from './transport';

const areas = areaFiles().map((file) => ({ ...loadArea(file), recording: loadRecording(file) }));
const pending = loadPending();
const namings: Naming[] = ['platform', 'alias'];
// tally counts scenario runs per form: matching kube-apiserver (documented differences among
// them) and still pending (counted as failing).
const tally: Record<Form, { runs: number; passed: number; known: number; pending: number }> = {
  'all-in-one': { runs: 0, passed: 0, known: 0, pending: 0 },
  distributed: { runs: 0, passed: 0, known: 0, pending: 0 },
};

// expectationsOf are the answers a scenario's steps must give.
function expectationsOf(scenario: Scenario, recorded: Answer[]): Answer[] {
  return scenario.steps.map((step, i) => expectedAnswer(step.documented ? ({ ...recorded[i], ...step.documented } as Answer) : recorded[i]));
}

function report(scenario: Scenario, form: Form, naming: Naming, failures: string[]): string {
  return [`${scenario.name} (${form}, ${naming} names) differs from kube-apiserver${scenario.known ? ` (documented: ${scenario.known})` : ''}:`, ...failures].join('\n');
}

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

// replayArea replays every recorded scenario of an area against one form of Plinth, under both
// namings, and prints the form's tally so far after it.
function replayArea(area: AreaFile & { recording: Recording }, form: Form, target: () => Target): void {
  const counts = tally[form];
  afterAll(() => {
    // The pass count of every area so far; the last line printed per form covers the whole suite.
    console.log(
      `differential (${form}): ${counts.passed} of ${counts.runs} scenario runs match kube-apiserver 1.28 (${counts.known} of them documented differences), ${counts.pending} pending (after ${area.area})`,
    );
  });
  const recorded = area.scenarios.filter((s) => area.recording[s.name]);
  test.each(recorded.flatMap((scenario) => namings.map((naming) => ({ scenario, naming, title: `${scenario.name} (${naming})` }))))('$title', async ({ scenario, naming }) => {
    counts.runs++;
    const expected = expectationsOf(scenario, area.recording[scenario.name]);
    const { answers } = await runScenario(target(), scenario, naming);
    const failures = answers.flatMap((actual, i) =>
      diffAnswers(expected[i], actual, scenario.steps[i].compare === 'status').map((d) => `  step ${i + 1} ${scenario.steps[i].request}: ${d}`),
    );
    const reason = pendingReason(pending, area.area, scenario.name, form, naming);
    if (reason !== undefined) {
      counts.pending++;
      // A pending scenario must still differ: once it matches, it comes off pending.yaml.
      expect(failures.length > 0 ? '' : `${scenario.name} (${form}, ${naming} names) now matches kube-apiserver: take it off pending.yaml (${reason})`).toBe('');
      return;
    }
    if (failures.length === 0) counts.passed++;
    if (failures.length === 0 && scenario.known) counts.known++;
    expect(failures.length === 0 ? '' : report(scenario, form, naming, failures)).toBe('');
  });
}

describe('all-in-one', () => {
  describe.each(areas)('differential: $area', (area) => {
    const server = suiteServer();
    replayArea(area, 'all-in-one', () => ({ base: server.url, token: 'admin-token' }));
  });
});

// One distributed Plinth serves every area: its controller manager runs every controller (no
// simulated nodes: the scenarios register their own Nodes).
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
});
