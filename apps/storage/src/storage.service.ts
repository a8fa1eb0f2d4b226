// StorageService keeps the store the microservice serves: it keeps the store's history to the
// 5-minute window, probes etcd every second, logs once when the link is lost and once when it
// is back (calls failing meanwhile are answered Unreachable), and serves the link's state as
// plinth_link_up{link="etcd"} and etcd's database size (polled every 30 s) beside it. Nest closes
// the transport first (open watches end, running calls finish), then runs onApplicationShutdown,
// which closes the store the calls were using.
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { LinkState, probeLink, realClock } from '@plinth/machinery';
import { defaultRegistry, registerLinkMetric } from '@plinth/metrics';
import { OBJECT_STORE } from '@plinth/nest';
import { HistoryCompactor, ObjectStore } from '@plinth/storage';
import { EtcdDbSizeMonitor, observeDbSize } from '@plinth/storage-etcd';
import { StorageConfig, describeStorageBackend, etcdClientOptions } from './storage-config';

export const STORAGE_CONFIG = Symbol('StorageConfig');

@Injectable()
export class StorageService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StorageService.name);
  private readonly compactor: HistoryCompactor;
  private stopProbing: (() => void) | null = null;
  private dbSize: EtcdDbSizeMonitor | null = null;
  private stopDbSize: (() => void) | null = null;

  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(STORAGE_CONFIG) private readonly config: StorageConfig,
  ) {
    this.compactor = new HistoryCompactor(store, {
      onError: (err) => this.logger.warn(`compaction failed: ${err instanceof Error ? err.message : String(err)}`),
    });
  }

  onApplicationBootstrap(): void {
    this.logger.log(`storage backend: ${describeStorageBackend(this.config.backend)}`);
    this.compactor.start();
    if (this.config.backend.kind === 'etcd') {
      const etcd = new LinkState('etcd', (line) => this.logger.warn(line));
      registerLinkMetric(defaultRegistry(), [etcd]);
      this.stopProbing = probeLink(etcd, () => this.store.currentRevision(), realClock, 1000);
      const dbSize = (this.dbSize = new EtcdDbSizeMonitor(etcdClientOptions(this.config.backend)));
      this.stopDbSize = observeDbSize(defaultRegistry(), () => dbSize.sizes(), realClock);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopProbing?.();
    this.stopDbSize?.();
    this.dbSize?.close();
    this.compactor.stop();
    await this.store.close();
  }
}
