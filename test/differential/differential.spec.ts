// The differential suite: every scenario of scenarios/*.yaml is replayed against Plinth twice,
// with the groups renamed (`*.platform.io`) and through the `*.k8s.io` aliases, and each answer
// is compared field by field with what a real kube-apiserver 1.28 answered (the recording
// beside the scenario file), or with the documented answer of a `known` scenario.
import { namespaceDeletionGracePeriodMs } from '@plinth/controller-manager';
import { suiteServer } from '../api/http';
import { diffAnswers } from './compare';
import { expectedAnswer, Naming, runScenario } from './run';
import { Answer, areaFiles, formatErrors, loadArea, loadPending, loadRecording, pendingReason, Scenario } from './scenario';

const areas = areaFiles().map((file) => ({ ...loadArea(file), recording: loadRecording(file) }));
const pending = loadPending();
const namings: Naming[] = ['platform', 'alias'];
// tally counts scenario runs: matching kube-apiserver (documented differences among them) and
// still pending (counted as failing).
const tally = { runs: 0, passed: 0, known: 0, pending: 0 };

// expectationsOf are the answers a scenario's steps must give.
function expectationsOf(scenario: Scenario, recorded: Answer[]): Answer[] {
  return scenario.steps.map((step, i) => expectedAnswer(step.documented ? ({ ...recorded[i], ...step.documented } as Answer) : recorded[i]));
}

function report(scenario: Scenario, naming: Naming, failures: string[]): string {
  return [`${scenario.name} (${naming} names) differs from kube-apiserver${scenario.known ? ` (documented: ${scenario.known})` : ''}:`, ...failures].join('\n');
}

test('every scenario file is well formed and every scenario is recorded', () => {
  const problems = areas.flatMap((area) => [
    ...formatErrors(area),
    ...Object.keys(pending[area.area] ?? {})
      .filter((name) => !area.scenarios.some((s) => s.name === name))
      .map((name) => `pending.yaml: ${area.area}: "${name}" is no scenario`),
    ...area.scenarios.filter((s) => area.recording[s.name]?.length !== s.steps.length).map((s) => `${area.file}: "${s.name}" is not recorded (run tools/differential/record.ts)`),
  ]);
  expect(problems).toEqual([]);
  expect(areas.reduce((n, a) => n + a.scenarios.length, 0)).toBeGreaterThanOrEqual(300);
});

describe.each(areas)('differential: $area', (area) => {
  // The garbage collector takes off the orphan finalizer of a delete with the Orphan policy; the
  // namespace controller waits kube-controller-manager's 5 s before it empties a namespace.
  const server = suiteServer({}, { garbageCollector: true, namespaceDeletionGracePeriodMs });
  afterAll(() => {
    // The pass count of every area so far; the last line printed covers the whole suite.
    console.log(
      `differential: ${tally.passed} of ${tally.runs} scenario runs match kube-apiserver 1.28 (${tally.known} of them documented differences), ${tally.pending} pending (after ${area.area})`,
    );
  });
  const recorded = area.scenarios.filter((s) => area.recording[s.name]);
  test.each(recorded.flatMap((scenario) => namings.map((naming) => ({ scenario, naming, title: `${scenario.name} (${naming})` }))))('$title', async ({ scenario, naming }) => {
    tally.runs++;
    const expected = expectationsOf(scenario, area.recording[scenario.name]);
    const { answers } = await runScenario({ base: server.url, token: 'admin-token' }, scenario, naming);
    const failures = answers.flatMap((actual, i) =>
      diffAnswers(expected[i], actual, scenario.steps[i].compare === 'status').map((d) => `  step ${i + 1} ${scenario.steps[i].request}: ${d}`),
    );
    const reason = pendingReason(pending, area.area, scenario.name, naming);
    if (reason !== undefined) {
      tally.pending++;
      // A pending scenario must still differ: once it matches, it comes off pending.yaml.
      expect(failures.length > 0 ? '' : `${scenario.name} (${naming} names) now matches kube-apiserver: take it off pending.yaml (${reason})`).toBe('');
      return;
    }
    if (failures.length === 0) tally.passed++;
    if (failures.length === 0 && scenario.known) tally.known++;
    expect(failures.length === 0 ? '' : report(scenario, naming, failures)).toBe('');
  });
});
