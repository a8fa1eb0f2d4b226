// serveAuthorizer answers the authorization requests of gateways for an Authorizer in this
// process: AuthorizerController on AuthzNatsTransport, as the authz app runs them, for tests
// that need an authz service beside their gateway's NatsAuthorizer.
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NatsConnection } from 'nats';
import { authorizerAnswers } from '@plinth/authz-nats';
import { Authorizer } from '@plinth/rbac';
import { AUTHORIZER_ANSWERS, AuthorizerController } from './authorizer.controller';
import { AuthzNatsTransport } from './authz-nats.transport';

export interface ServeAuthorizerOptions {
  // subjectPrefix roots the subjects (plinth.authz when absent).
  subjectPrefix?: string;
  // queue is the queue group (plinth-authz when absent).
  queue?: string;
  // onError hears about requests that could not be read or answered.
  onError?: (err: unknown) => void;
}

export interface AuthorizerService {
  // stop unsubscribes and resolves once the requests already received are answered; the
  // connection stays open.
  stop(): Promise<void>;
}

@Module({})
class AuthorizerServiceModule {
  static answering(authorizer: Authorizer): DynamicModule {
    return {
      module: AuthorizerServiceModule,
      controllers: [AuthorizerController],
      providers: [{ provide: AUTHORIZER_ANSWERS, useValue: authorizerAnswers(authorizer) }],
    };
  }
}

export async function serveAuthorizer(nc: NatsConnection, authorizer: Authorizer, options: ServeAuthorizerOptions = {}): Promise<AuthorizerService> {
  const transport = new AuthzNatsTransport({ connect: async () => nc, ...options });
  const app = await NestFactory.createMicroservice(AuthorizerServiceModule.answering(authorizer), { strategy: transport, logger: ['error', 'warn'] });
  await app.listen();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= app.close();
      return stopped;
    },
  };
}
