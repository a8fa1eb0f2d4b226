// GatewayModule is the distributed API server: the same ApiServerHost as the all-in-one, over
// the storage service reached through gRPC (--storage-address).
import { DynamicModule, Module } from '@nestjs/common';
import { ServerFlags } from '@plinth/apiserver';
import { ApiServerHost, OBJECT_STORE, SERVER_FLAGS } from '@plinth/nest';
import { ObjectStore } from '@plinth/storage';
import { GrpcObjectStore } from '@plinth/storage-grpc';

@Module({})
export class GatewayModule {
  static forFlags(flags: ServerFlags): DynamicModule {
    return {
      module: GatewayModule,
      providers: [
        { provide: SERVER_FLAGS, useValue: flags },
        { provide: OBJECT_STORE, useFactory: (): ObjectStore => new GrpcObjectStore({ address: flags.storageAddress }) },
        ApiServerHost,
      ],
    };
  }
}
