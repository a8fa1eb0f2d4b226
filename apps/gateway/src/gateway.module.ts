// GatewayModule is the distributed API server: the same ApiServerHost as the all-in-one, over
// the storage service reached through gRPC (--storage-address) over mutual TLS
// (--storage-ca-file, --storage-cert-file, --storage-key-file) or, in local development,
// plaintext (--storage-insecure), its limits set by --storage-max-pending-calls,
// --storage-keepalive-time and --storage-keepalive-timeout.
import { DynamicModule, Module } from '@nestjs/common';
import { ServerFlags } from '@plinth/apiserver';
import { checkNatsLink } from '@plinth/authz-nats';
import { natsLinkOf } from '@plinth/kube-apiserver';
import { OBJECT_STORE } from '@plinth/nest';
import { ApiServerHost, SERVER_FLAGS } from '@plinth/nest/apiserver';
import { ObjectStore } from '@plinth/storage';
import { defaultRegistry } from '@plinth/metrics';
import { GrpcObjectStore, StorageLinkMetrics, storageLinkCredentials } from '@plinth/storage-grpc';

@Module({})
export class GatewayModule {
  static forFlags(flags: ServerFlags): DynamicModule {
    const credentials = storageLinkCredentials({ caFile: flags.storageCAFile, certFile: flags.storageCertFile, keyFile: flags.storageKeyFile, insecure: flags.storageInsecure });
    checkNatsLink(natsLinkOf(flags));
    return {
      module: GatewayModule,
      providers: [
        { provide: SERVER_FLAGS, useValue: flags },
        {
          provide: OBJECT_STORE,
          // callTimeoutMs: a storage call outlives its request by nothing (--request-timeout).
          useFactory: (): ObjectStore =>
            new GrpcObjectStore({
              address: flags.storageAddress,
              credentials,
              callTimeoutMs: flags.requestTimeoutMs,
              ...flags.storageLink,
              metrics: new StorageLinkMetrics(defaultRegistry()),
            }),
        },
        ApiServerHost,
      ],
    };
  }
}
