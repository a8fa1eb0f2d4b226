// etcdSpan runs one request to etcd in a client span named as etcd's gRPC method
// ("etcdserverpb.KV/Range"), as the otelgrpc interceptor names the spans of etcd's Go client
// under kube-apiserver, with the key range it covers, the revision it asked for and the
// revision etcd answered at. A compacted revision is an expected answer (the caller turns it
// into 410 Gone), recorded as an event rather than a failure.
import { Attributes, SpanKind, withSpan } from '@plinth/telemetry';
import { StorageErrorCode, isStorageError } from '@plinth/storage';
import { interpretEtcdError } from './errors';
import { EtcdOperation } from './request-metrics';

export type EtcdMethod = 'Range' | 'Txn' | 'DeleteRange' | 'Compact';

export interface EtcdRequest {
  method: EtcdMethod;
  // operation is the store's operation the request serves, as etcd_request_duration_seconds
  // names it.
  operation: EtcdOperation;
  key: string;
  // rangeEnd is the end of a range request's key range (exclusive), absent for one key.
  rangeEnd?: string;
  // revision is the revision read at (or compacted to); 0 or absent for the latest.
  revision?: number;
}

interface EtcdResponse {
  header: { revision: string };
}

export function etcdSpan<T extends EtcdResponse>(request: EtcdRequest, call: () => Promise<T>): Promise<T> {
  return withSpan(
    `etcdserverpb.KV/${request.method}`,
    etcdSpanAttributes(request),
    async (span) => {
      const response = await call();
      if (span.isRecording()) span.setAttribute('etcd.response.revision', Number(response.header.revision));
      return response;
    },
    { kind: SpanKind.CLIENT, isFailure: (err) => !isStorageError(interpretEtcdError(err, request.key), StorageErrorCode.Expired) },
  );
}

export function etcdSpanAttributes(request: EtcdRequest): Attributes {
  const attributes: Attributes = {
    'rpc.system': 'grpc',
    'rpc.service': 'etcdserverpb.KV',
    'rpc.method': request.method,
    'db.system': 'etcd',
    // peer.service names etcd in a service graph (Tempo's virtual node for a server that
    // exports no spans).
    'peer.service': 'etcd',
    'etcd.key': request.key,
  };
  if (request.rangeEnd !== undefined) attributes['etcd.range_end'] = request.rangeEnd;
  if (request.revision) attributes['etcd.revision'] = request.revision;
  return attributes;
}
