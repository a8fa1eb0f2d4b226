// PlinthModule is the all-in-one process: the API server over the embedded store, with the
// node simulator and controllers as clients of its HTTPS API, in one process with nothing
// else to install.
import { DynamicModule, Module } from '@nestjs/common';
import { ServerFlags } from '@plinth/apiserver';
import { ControllerManagerFlags } from '@plinth/config';
import { OBJECT_STORE } from '@plinth/nest';
import { ApiServerHost, SERVER_FLAGS } from '@plinth/nest/apiserver';
import { CONTROLLER_CREDENTIALS, CONTROLLER_MANAGER_SETTINGS, controllerManagerSettings, ControllersHost, inProcessCredentials } from '@plinth/nest/controllers';
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';
import { join } from 'node:path';

@Module({})
export class PlinthModule {
  static forFlags(flags: ServerFlags, controllers: ControllerManagerFlags): DynamicModule {
    return {
      module: PlinthModule,
      providers: [
        { provide: SERVER_FLAGS, useValue: flags },
        { provide: OBJECT_STORE, useFactory: (): ObjectStore => new EmbeddedObjectStore({ dataDir: join(flags.dataDir, 'store') }) },
        ApiServerHost,
        { provide: CONTROLLER_CREDENTIALS, useFactory: inProcessCredentials, inject: [ApiServerHost] },
        { provide: CONTROLLER_MANAGER_SETTINGS, useValue: controllerManagerSettings(controllers) },
        ControllersHost,
      ],
    };
  }
}
