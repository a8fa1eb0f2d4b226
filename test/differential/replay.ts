// replay.ts replays the recorded scenarios against one form of Plinth (the all-in-one or the
// distributed one; a spec file each, so that jest runs them side by side), under both namings,
// and compares each answer field by field with what a real kube-apiserver 1.28 answered (the
// recording beside the scenario file), or with the documented answer of a `known` scenario.
import { diffAnswers } from './compare';
import { withManagedFieldsInOrder } from './normalise';
import { expectedAnswer, Naming, runScenario } from './run';
import { Answer, AreaFile, areaFiles, Form, loadArea, loadPending, loadRecording, pendingReason, Recording, Scenario } from './scenario';
import { Target } from './transport';

export type RecordedArea = AreaFile & { recording: Recording };

export const areas: RecordedArea[] = areaFiles().map((file) => ({ ...loadArea(file), recording: loadRecording(file) }));
export const pending = loadPending();
const namings: Naming[] = ['platform', 'alias'];
// controllerScenarioTimeoutMs bounds a scenario of a controller area, whose steps wait for
// controllers (a Job's back-off alone is 10 s).
const controllerScenarioTimeoutMs = 180_000;
// tally counts a form's scenario runs: matching kube-apiserver (documented differences among
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

// replayArea replays every recorded scenario of an area against one form of Plinth, under both
// namings, and prints the form's tally so far after it.
export function replayArea(area: RecordedArea, form: Form, target: () => Target): void {
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
    const inOrder = (answer: Answer) => withManagedFieldsInOrder(answer) as Answer;
    const expected = expectationsOf(scenario, area.recording[scenario.name]).map(inOrder);
    const answers = (await runScenario(target(), scenario, naming)).answers.map(inOrder);
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
  }, area.controllers ? controllerScenarioTimeoutMs : undefined);
}
