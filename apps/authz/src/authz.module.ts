// authzMicroservice wires the authz service: the storage service reached over gRPC, the links
// it follows, AuthzService keeping the policy, and AuthorizerController answering its
// Authorizer's questions on AuthzNatsTransport, over the NATS connection the transport opens.
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { ObjectStore } from '@plinth/storage';
import { authorizerAnswers, checkNatsLink, connectNats } from '@plinth/authz-nats';
import { LinkState } from '@plinth/machinery';
import { defaultRegistry } from '@plinth/metrics';
import { AUTHORIZER_ANSWERS, AuthorizerController, AuthzNatsTransport } from '@plinth/nest/authz';
import { GrpcObjectStore, StorageLinkMetrics, storageLinkCredentials } from '@plinth/storage-grpc';
import { AuthzConfig } from './authz-config';
import { AUTHZ_CONFIG, AUTHZ_LINKS, AUTHZ_STORE, AUTHZ_TRANSPORT, AuthzLinks, AuthzService } from './authz.service';

@Module({})
export class AuthzModule {}

export function authzMicroservice(config: AuthzConfig): { module: DynamicModule; transport: AuthzNatsTransport } {
  const credentials = storageLinkCredentials(config.storage);
  checkNatsLink(config.nats);
  const logger = new Logger('authz');
  const links: AuthzLinks = { storage: new LinkState('storage', (line) => logger.warn(line)), nats: new LinkState('nats', (line) => logger.warn(line)) };
  const transport = new AuthzNatsTransport({
    connect: () => connectNats({ settings: config.nats, name: 'plinth-authz', link: links.nats }),
    onError: (err) => logger.warn(`answering: ${err instanceof Error ? err.message : String(err)}`),
  });
  const module: DynamicModule = {
    module: AuthzModule,
    controllers: [AuthorizerController],
    providers: [
      { provide: AUTHZ_CONFIG, useValue: config },
      { provide: AUTHZ_LINKS, useValue: links },
      { provide: AUTHZ_TRANSPORT, useValue: transport },
      {
        provide: AUTHZ_STORE,
        useFactory: (): ObjectStore => new GrpcObjectStore({ address: config.storageAddress, credentials, ...config.storageLink, metrics: new StorageLinkMetrics(defaultRegistry()) }),
      },
      AuthzService,
      { provide: AUTHORIZER_ANSWERS, useFactory: (service: AuthzService) => authorizerAnswers(service.authorizer), inject: [AuthzService] },
    ],
  };
  return { module, transport };
}
