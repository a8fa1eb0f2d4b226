// ControllersHost hosts the ControllerManager of @plinth/controller-manager (the node simulator,
// leader election, leader migration and the controllers) in a Nest application: in the
// all-in-one process, as a client of its own HTTPS API, and in apps/controllers, of a gateway.
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { ClientCredentials } from '@plinth/client';
import { ControllerManager, ControllerManagerSettings, LeaderMigrationConfig } from '@plinth/controller-manager';

// CONTROLLER_CREDENTIALS provides how the controllers reach the API: a function resolving to
// the server and credentials once the API serves (in the all-in-one, after it listens).
export const CONTROLLER_CREDENTIALS = Symbol('ControllerCredentials');
export type ControllerCredentials = () => Promise<ClientCredentials>;

// CONTROLLER_MANAGER_SETTINGS provides the ControllerManagerSettings.
export const CONTROLLER_MANAGER_SETTINGS = Symbol('ControllerManagerSettings');

// LEADER_MIGRATION provides the LeaderMigrationConfiguration when leader migration is enabled
// (absent or null: no migration).
export const LEADER_MIGRATION = Symbol('LeaderMigration');

@Injectable()
export class ControllersHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly manager: ControllerManager;

  constructor(
    @Inject(CONTROLLER_MANAGER_SETTINGS) settings: ControllerManagerSettings,
    @Inject(CONTROLLER_CREDENTIALS) credentials: ControllerCredentials,
    @Optional() @Inject(LEADER_MIGRATION) migration: LeaderMigrationConfig | null = null,
  ) {
    this.manager = new ControllerManager({ credentials, settings, migration, log: new Logger('controllers') });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.manager.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.manager.stop();
  }
}
