// StorageModule wires the storage service: the backend the configuration names, served over
// gRPC by StorageService.
import { DynamicModule, Module } from '@nestjs/common';
import { StorageConfig, openStorageBackend } from './storage-config';
import { STORAGE_BACKEND, STORAGE_CONFIG, StorageService } from './storage.service';

@Module({})
export class StorageModule {
  static forConfig(config: StorageConfig): DynamicModule {
    return {
      module: StorageModule,
      providers: [
        { provide: STORAGE_CONFIG, useValue: config },
        { provide: STORAGE_BACKEND, useFactory: () => openStorageBackend(config.backend) },
        StorageService,
      ],
    };
  }
}
