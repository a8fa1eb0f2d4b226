// Leader migration, as controller-manager/pkg/leadermigration: during a migration of controllers
// between components (kube-controller-manager and another), the controllers the
// LeaderMigrationConfiguration lists run under a migration lock (the Lease leaderName) that
// both components contend for, so that each migrated controller runs in exactly one place; the
// component named in controllerLeaders[].component (or `*`) is the one that runs it.

export const kubeControllerManagerComponent = 'kube-controller-manager';

export interface LeaderMigrationConfig {
  leaderName: string;
  resourceLock: string;
  controllerLeaders: { name: string; component: string }[];
}

// FilterResult says under which lock a controller runs: the main lock (NonMigrated), the
// migration lock (Migrated), or nowhere in this component (Unowned).
export type FilterResult = 'Migrated' | 'NonMigrated' | 'Unowned';

// defaultLeaderMigrationConfiguration is what --enable-leader-migration uses without
// --leader-migration-config.
export function defaultLeaderMigrationConfiguration(): LeaderMigrationConfig {
  return {
    leaderName: 'cloud-provider-extraction-migration',
    resourceLock: 'leases',
    controllerLeaders: [
      { name: 'route', component: '*' },
      { name: 'service', component: '*' },
      { name: 'cloud-node-lifecycle', component: '*' },
    ],
  };
}

// migrationFilter is NewLeaderMigrator's FilterFunc for the given component.
export function migrationFilter(config: LeaderMigrationConfig, component: string): (controller: string) => FilterResult {
  const migrated = new Map<string, boolean>();
  for (const leader of config.controllerLeaders) migrated.set(leader.name, leader.component === component || leader.component === '*');
  return (controller) => {
    const runsHere = migrated.get(controller);
    if (runsHere === undefined) return 'NonMigrated';
    return runsHere ? 'Migrated' : 'Unowned';
  };
}
