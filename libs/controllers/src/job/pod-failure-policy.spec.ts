import { newJob, newPod } from './fixtures';
import { matchPodFailurePolicy } from './pod-failure-policy';
import { PodFailurePolicy } from './types';

const job = newJob();

const policy: PodFailurePolicy = {
  rules: [
    { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
    { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 2] } },
  ],
};

describe('matchPodFailurePolicy', () => {
  it.each([
    {
      name: 'exit code In on the named container fails the job',
      pod: newPod(job, { name: 'x', phase: 'Failed', exitCode: 42 }),
      want: { action: 'FailJob', countFailed: true, message: 'Container main for pod default/x failed with exit code 42 matching FailJob rule at index 0' },
    },
    { name: 'another container does not match the named one', pod: newPod(job, { phase: 'Failed', exitCode: 42, container: 'sidecar' }), want: { action: 'Count', countFailed: true } },
    {
      name: 'a disruption is ignored',
      pod: newPod(job, { phase: 'Failed', exitCode: 1, conditions: [{ type: 'DisruptionTarget', status: 'True' }] }),
      want: { action: 'Ignore', countFailed: false },
    },
    { name: 'a condition with another status does not match', pod: newPod(job, { phase: 'Failed', exitCode: 1, conditions: [{ type: 'DisruptionTarget', status: 'False' }] }), want: { countFailed: true } },
    { name: 'NotIn matches codes outside the list', pod: newPod(job, { phase: 'Failed', exitCode: 3 }), want: { action: 'Count', countFailed: true } },
    { name: 'no rule matches: default handling', pod: newPod(job, { phase: 'Failed', exitCode: 2 }), want: { countFailed: true } },
  ])('$name', ({ pod, want }) => {
    expect(matchPodFailurePolicy(policy, pod)).toEqual(want);
  });

  it('skips rules with an unknown action or operator', () => {
    const rules: PodFailurePolicy = {
      rules: [
        { action: 'Restart', onExitCodes: { operator: 'In', values: [5] } },
        { action: 'FailJob', onExitCodes: { operator: 'Between', values: [5] } },
        { action: 'Ignore', onExitCodes: { operator: 'In', values: [5] } },
      ],
    };
    expect(matchPodFailurePolicy(rules, newPod(job, { phase: 'Failed', exitCode: 5 }))).toEqual({ action: 'Ignore', countFailed: false });
  });

  it('reports a FailJob condition rule by the pod condition', () => {
    const rules: PodFailurePolicy = { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget' }] }] };
    const pod = newPod(job, { name: 'y', phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    expect(matchPodFailurePolicy(rules, pod).message).toBe('Pod default/y has condition DisruptionTarget matching FailJob rule at index 0');
  });

  it('never matches exit code 0 and counts by default without a policy', () => {
    const rules: PodFailurePolicy = { rules: [{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [1] } }] };
    expect(matchPodFailurePolicy(rules, newPod(job, { phase: 'Failed', exitCode: 0 }))).toEqual({ countFailed: true });
    expect(matchPodFailurePolicy(undefined, newPod(job, { phase: 'Failed', exitCode: 42 }))).toEqual({ countFailed: true });
  });
});
