// The controller manager's settings in the units its code uses, shared by the flag parsers and
// the manager (@plinth/controller-manager).

// LeaderElectionSettings is LeaderElectionConfiguration with durations in milliseconds; the
// lock is always a Lease.
export interface LeaderElectionSettings {
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  resourceName: string;
  resourceNamespace: string;
}

// controllerEnabled reads a Controllers list: the first item naming the controller (or `*`)
// decides; a name no item matches is off.
export function controllerEnabled(name: string, controllers: readonly string[]): boolean {
  for (const item of controllers) {
    if (item === name) return true;
    if (item === `-${name}`) return false;
    if (item === '*') return true;
  }
  return false;
}
