// PlinthModule is the all-in-one process: the API server over the embedded store, with the
// node simulator and controllers on a worker thread (ControllersWorkerHost; the thread's module
// is ControllersWorkerModule) as clients of its HTTPS API, in one process with nothing else to
// install.
import { DynamicModule, Module } from '@nestjs/common';
import { ServerFlags } from '@plinth/apiserver';
import { ControllerManagerFlags } from '@plinth/config';
import { OBJECT_STORE } from '@plinth/nest';
import { ApiServerHost, inProcessCredentials, SERVER_FLAGS } from '@plinth/nest/apiserver';
import { ControllersWorker, ControllersWorkerHost, CONTROLLERS_WORKER } from '@plinth/nest/worker';
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';
import { extname, join } from 'node:path';
import { ControllersWorkerData } from './controllers-worker.module';

// controllersWorkerEntry is the worker's module beside this one (.ts from the sources, .js built).
const controllersWorkerEntry = join(__dirname, `controllers.worker${extname(__filename)}`);

@Module({})
export class PlinthModule {
  static forFlags(flags: ServerFlags, controllers: ControllerManagerFlags): DynamicModule {
    return {
      module: PlinthModule,
      providers: [
        { provide: SERVER_FLAGS, useValue: flags },
        { provide: OBJECT_STORE, useFactory: (): ObjectStore => new EmbeddedObjectStore({ dataDir: join(flags.dataDir, 'store') }) },
        ApiServerHost,
        {
          provide: CONTROLLERS_WORKER,
          useFactory: (host: ApiServerHost): ControllersWorker => ({
            entry: controllersWorkerEntry,
            data: { flags: controllers } satisfies Omit<ControllersWorkerData, 'credentials'>,
            credentials: inProcessCredentials(host),
          }),
          inject: [ApiServerHost],
        },
        ControllersWorkerHost,
      ],
    };
  }
}
