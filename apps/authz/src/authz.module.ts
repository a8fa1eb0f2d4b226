// AuthzModule wires the authz service: the storage service reached over gRPC, and AuthzService
// answering over NATS.
import { DynamicModule, Module } from '@nestjs/common';
import { ObjectStore } from '@plinth/storage';
import { checkNatsLink } from '@plinth/authz-nats';
import { defaultRegistry } from '@plinth/metrics';
import { GrpcObjectStore, StorageLinkMetrics, storageLinkCredentials } from '@plinth/storage-grpc';
import { AuthzConfig } from './authz-config';
import { AUTHZ_CONFIG, AUTHZ_STORE, AuthzService } from './authz.service';

@Module({})
export class AuthzModule {
  static forConfig(config: AuthzConfig): DynamicModule {
    const credentials = storageLinkCredentials(config.storage);
    checkNatsLink(config.nats);
    return {
      module: AuthzModule,
      providers: [
        { provide: AUTHZ_CONFIG, useValue: config },
        { provide: AUTHZ_STORE, useFactory: (): ObjectStore => new GrpcObjectStore({ address: config.storageAddress, credentials, metrics: new StorageLinkMetrics(defaultRegistry()) }) },
        AuthzService,
      ],
    };
  }
}
