// The pod failure policy of a Job, after pod_failure_policy.go (v1.28): rules are tried in
// order and the first one that matches a failed pod decides; a rule with an unknown action or
// operator never matches.
import { ContainerStatus, Pod, PodCondition, PodFailurePolicy, PodFailurePolicyRule } from './types';

export type PodFailurePolicyAction = 'FailJob' | 'Ignore' | 'Count';

export interface PodFailurePolicyMatch {
  // action is the action of the matching rule, undefined when no rule matched.
  action?: PodFailurePolicyAction;
  // countFailed says whether the failure counts against backoffLimit.
  countFailed: boolean;
  // message is the Failed condition's message when the action is FailJob.
  message?: string;
}

const noMatch: PodFailurePolicyMatch = { countFailed: true };

function exitCodeMatches(exitCode: number, requirement: NonNullable<PodFailurePolicyRule['onExitCodes']>): boolean {
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return values.includes(exitCode);
    case 'NotIn':
      return !values.includes(exitCode);
    default:
      return false;
  }
}

// matchingContainer returns the first terminated container, app containers before init
// containers, whose non-zero exit code satisfies the requirement.
function matchingContainer(pod: Pod, requirement: NonNullable<PodFailurePolicyRule['onExitCodes']>): ContainerStatus | undefined {
  const lists = [pod.status?.containerStatuses ?? [], pod.status?.initContainerStatuses ?? []];
  for (const statuses of lists) {
    const found = statuses.find((s) => {
      const terminated = s.state?.terminated;
      if (!terminated || terminated.exitCode === 0) return false;
      if (requirement.containerName && requirement.containerName !== s.name) return false;
      return exitCodeMatches(terminated.exitCode, requirement);
    });
    if (found) return found;
  }
  return undefined;
}

function matchingCondition(pod: Pod, patterns: NonNullable<PodFailurePolicyRule['onPodConditions']>): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => patterns.some((p) => p.type === c.type && (p.status ?? 'True') === c.status));
}

// matchPodFailurePolicy is matchPodFailurePolicy; the pod is expected to have failed.
export function matchPodFailurePolicy(policy: PodFailurePolicy | null | undefined, pod: Pod): PodFailurePolicyMatch {
  if (!policy) return noMatch;
  const podName = `${pod.metadata.namespace}/${pod.metadata.name}`;
  const rules = policy.rules ?? [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    let subject: string | undefined;
    if (rule.onExitCodes) {
      const container = matchingContainer(pod, rule.onExitCodes);
      if (container) {
        subject = `Container ${container.name} for pod ${podName} failed with exit code ${container.state?.terminated?.exitCode}`;
      }
    } else if (rule.onPodConditions) {
      const condition = matchingCondition(pod, rule.onPodConditions);
      if (condition) subject = `Pod ${podName} has condition ${condition.type}`;
    }
    if (subject === undefined) continue;
    switch (rule.action) {
      case 'Ignore':
        return { action: 'Ignore', countFailed: false };
      case 'Count':
        return { action: 'Count', countFailed: true };
      case 'FailJob':
        return { action: 'FailJob', countFailed: true, message: `${subject} matching FailJob rule at index ${index}` };
    }
  }
  return noMatch;
}
