// StorageModule wires the storage service: the backend the configuration names, served by
// ObjectStoreServiceModule over the microservice's StorageGrpcTransport, and StorageService
// keeping it.
import { DynamicModule, Module } from '@nestjs/common';
import { ObjectStoreServiceModule, StorageGrpcTransport } from '@plinth/nest/storage';
import { StorageConfig, openStorageBackend } from './storage-config';
import { STORAGE_CONFIG, StorageService } from './storage.service';

@Module({})
export class StorageModule {
  static forConfig(config: StorageConfig, transport: StorageGrpcTransport): DynamicModule {
    return {
      module: StorageModule,
      imports: [ObjectStoreServiceModule.forStore(() => openStorageBackend(config.backend), transport)],
      providers: [{ provide: STORAGE_CONFIG, useValue: config }, StorageService],
    };
  }
}
