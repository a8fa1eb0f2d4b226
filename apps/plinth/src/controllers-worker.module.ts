// ControllersWorkerModule is the all-in-one's worker thread: the controller manager (the node
// simulator, leader election and the controllers) as a client of the process's own API server,
// with the flags and credentials the main thread hands it (ControllersWorkerData).
import { DynamicModule, Module } from '@nestjs/common';
import { ClientCredentials } from '@plinth/client';
import { ControllerManagerFlags } from '@plinth/config';
import { CONTROLLER_CREDENTIALS, CONTROLLER_MANAGER_SETTINGS, controllerManagerSettings, ControllersHost } from '@plinth/nest/controllers';

// ControllersWorkerData is the worker's workerData: credentials are null when it started before
// the API served (they come later, as a CredentialsRequest).
export interface ControllersWorkerData {
  flags: ControllerManagerFlags;
  credentials: ClientCredentials | null;
}

@Module({})
export class ControllersWorkerModule {
  static forFlags(flags: ControllerManagerFlags, credentials: () => Promise<ClientCredentials>): DynamicModule {
    return {
      module: ControllersWorkerModule,
      providers: [
        { provide: CONTROLLER_MANAGER_SETTINGS, useValue: controllerManagerSettings(flags) },
        { provide: CONTROLLER_CREDENTIALS, useValue: credentials },
        ControllersHost,
      ],
    };
  }
}
