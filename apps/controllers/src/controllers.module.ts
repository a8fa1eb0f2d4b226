// ControllersModule is the distributed controller manager: the controllers and the node
// simulator as clients of a gateway, reached through a kubeconfig.
import { DynamicModule, Module } from '@nestjs/common';
import { ControllerManagerFlags } from '@plinth/config';
import { LeaderMigrationConfig } from '@plinth/controller-manager';
import { CONTROLLER_CREDENTIALS, CONTROLLER_MANAGER_SETTINGS, controllerManagerSettings, ControllersHost, kubeconfigCredentials, LEADER_MIGRATION } from '@plinth/nest/controllers';

@Module({})
export class ControllersModule {
  static forFlags(flags: ControllerManagerFlags, kubeconfig: string, migration: LeaderMigrationConfig | null = null): DynamicModule {
    return {
      module: ControllersModule,
      providers: [
        { provide: CONTROLLER_MANAGER_SETTINGS, useValue: controllerManagerSettings(flags) },
        { provide: CONTROLLER_CREDENTIALS, useValue: kubeconfigCredentials(kubeconfig) },
        { provide: LEADER_MIGRATION, useValue: migration },
        ControllersHost,
      ],
    };
  }
}
