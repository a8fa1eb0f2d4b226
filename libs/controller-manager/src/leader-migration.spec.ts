import { defaultLeaderMigrationConfiguration, migrationFilter } from './leader-migration';

describe('leader migration filter', () => {
  const config = {
    leaderName: 'migration',
    resourceLock: 'leases',
    controllerLeaders: [
      { name: 'job', component: 'kube-controller-manager' },
      { name: 'daemonset', component: 'cloud-controller-manager' },
      { name: 'namespace', component: '*' },
    ],
  };

  it('runs the controllers led by this component (or *) under the migration lock', () => {
    const filter = migrationFilter(config, 'kube-controller-manager');
    expect(filter('job')).toBe('Migrated');
    expect(filter('namespace')).toBe('Migrated');
  });

  it('leaves the controllers led by another component to it, and the rest to the main lock', () => {
    const filter = migrationFilter(config, 'kube-controller-manager');
    expect(filter('daemonset')).toBe('Unowned');
    expect(filter('garbagecollector')).toBe('NonMigrated');
    expect(migrationFilter(config, 'cloud-controller-manager')('job')).toBe('Unowned');
  });

  it('migrates the cloud controllers by default', () => {
    const filter = migrationFilter(defaultLeaderMigrationConfiguration(), 'kube-controller-manager');
    expect(filter('route')).toBe('Migrated');
    expect(filter('job')).toBe('NonMigrated');
    expect(defaultLeaderMigrationConfiguration().leaderName).toBe('cloud-provider-extraction-migration');
  });
});
