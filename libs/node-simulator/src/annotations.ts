// The annotations that drive a simulated pod, so that every Job and DaemonSet path can be
// exercised without containers (see the README's node simulator section).
export const simAnnotations = {
  // runSeconds: how long the containers run before terminating (a number, may be fractional).
  runSeconds: 'sim.platform.io/run-seconds',
  // exitCode: the exit code the first container terminates with (0 = success).
  exitCode: 'sim.platform.io/exit-code',
  // readySeconds: how long after starting the pod becomes Ready.
  readySeconds: 'sim.platform.io/ready-seconds',
  // condition: a pod condition type the pod reports True when it terminates (e.g.
  // DisruptionTarget), for pod failure policies.
  condition: 'sim.platform.io/condition',
} as const;

// defaultRunSeconds is how long a pod that may finish (restartPolicy Never or OnFailure) runs
// without an annotation.
export const defaultRunSeconds = 1;
