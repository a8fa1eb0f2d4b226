// resyncPeriod is kube-controller-manager's ResyncPeriod: each call gives a period between
// minResyncPeriodMs and twice that, at random, so that informers do not resync in lock-step.
export function resyncPeriod(minResyncPeriodMs: number, random: () => number = Math.random): () => number {
  return () => minResyncPeriodMs * (random() + 1);
}
