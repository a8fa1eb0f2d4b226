// The size of etcd's database, as kube-apiserver 1.28 reports it: the deprecated
// apiserver_storage_db_total_size_in_bytes{endpoint} per etcd endpoint (-1 while an endpoint
// does not answer; startDBSizeMonitorPerEndpoint) and apiserver_storage_size_bytes{cluster} of
// the cluster ("etcd-0": what one member answers; absent while none does), both from etcd's
// Status call, polled every --etcd-db-metric-poll-interval (30 s) rather than when scraped.
import { Etcd3 } from 'etcd3';
import { Clock } from '@plinth/machinery';
import { Gauge, Registry } from '@plinth/metrics';
import { EtcdObjectStoreOptions, newEtcdClient } from './client';

export interface EndpointDbSize {
  endpoint: string;
  // bytes is the database's size as the member allocated it; -1 when it did not answer.
  bytes: number;
}

// EtcdDbSizeMonitor asks each endpoint for its status over a connection of its own, so that
// every member is asked, not whichever the pool picks.
export class EtcdDbSizeMonitor {
  private readonly clients: { endpoint: string; client: Etcd3 }[];

  constructor(options: EtcdObjectStoreOptions) {
    this.clients = options.endpoints.map((endpoint) => ({ endpoint, client: newEtcdClient({ ...options, endpoints: [endpoint] }) }));
  }

  sizes(): Promise<EndpointDbSize[]> {
    return Promise.all(
      this.clients.map(({ endpoint, client }) =>
        client.maintenance.status().then(
          (status) => ({ endpoint, bytes: Number(status.dbSize) }),
          () => ({ endpoint, bytes: -1 }),
        ),
      ),
    );
  }

  close(): void {
    for (const { client } of this.clients) client.close();
  }
}

export const defaultDbMetricPollIntervalMs = 30_000;

// observeDbSize registers both gauges and polls the sizes at once and every interval; it returns
// what stops the polling.
export function observeDbSize(registry: Registry, sizes: () => Promise<EndpointDbSize[]>, clock: Clock, intervalMs = defaultDbMetricPollIntervalMs): () => void {
  const perEndpoint = registry.shared(
    new Gauge({
      name: 'apiserver_storage_db_total_size_in_bytes',
      help: '[ALPHA] (Deprecated since 1.28.0) Total size of the storage database file physically allocated in bytes.',
      labelNames: ['endpoint'],
    }),
  );
  const perCluster = registry.shared(
    new Gauge({ name: 'apiserver_storage_size_bytes', help: '[ALPHA] Size of the storage database file physically allocated in bytes.', labelNames: ['cluster'] }),
  );
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const answers = await sizes();
      for (const { endpoint, bytes } of answers) perEndpoint.labels(endpoint).set(bytes);
      const answered = answers.find((a) => a.bytes >= 0);
      if (answered) perCluster.labels('etcd-0').set(answered.bytes);
      else perCluster.remove('etcd-0');
    } finally {
      polling = false;
    }
  };
  void poll();
  const timer = clock.setInterval(() => void poll(), intervalMs);
  return () => timer.cancel();
}
