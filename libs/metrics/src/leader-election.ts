// leader_election_master_status is client-go's leader election gauge (registered by
// component-base's leader election metrics provider): 1 while this instance holds the lock
// named, 0 while it stands by. The leader-missing alert sums it over the instances.
import { Gauge, GaugeChild, Registry } from './registry';

export function leaderElectionStatus(registry: Registry, lockName: string): GaugeChild {
  const gauge = registry.shared(
    new Gauge({ name: 'leader_election_master_status', help: '[ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease. Please make sure to group by name.', labelNames: ['name'] }),
  );
  return gauge.labels(lockName);
}
