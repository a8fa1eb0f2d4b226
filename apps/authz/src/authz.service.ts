// AuthzService is RBAC as a service: the policy cache over the storage service, the ClusterRole
// aggregator and the bootstrap policy (LocalAuthorization), whose authorizer
// AuthorizerController answers gateways with over NATS, and the policy-change messages that
// tell them when the policy changed. It starts whatever is down: it waits for storage (to
// write the bootstrap policy and load the policy) before the microservice listens, which
// waits for NATS; both retry meanwhile, and each link is logged once when lost and once when
// back (served as plinth_link_up{link}). On the way out Nest first closes the transport (no
// more questions; those received are answered), then onApplicationShutdown stops publishing,
// drains NATS, stops following storage and closes it.
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { LocalAuthorization } from '@plinth/authz';
import { PolicyChangedPublisher, publishPolicyChanged } from '@plinth/authz-nats';
import { LinkState, realClock } from '@plinth/machinery';
import { defaultRegistry, registerLinkMetric } from '@plinth/metrics';
import { AuthzNatsTransport } from '@plinth/nest/authz';
import { Authorizer } from '@plinth/rbac';
import { builtinDefinitions } from '@plinth/registry';
import { ObjectStore } from '@plinth/storage';
import { AuthzConfig } from './authz-config';

export const AUTHZ_CONFIG = Symbol('AuthzConfig');
// AUTHZ_STORE is the storage service the policy is read from (GrpcObjectStore).
export const AUTHZ_STORE = Symbol('AuthzStore');
// AUTHZ_LINKS are the links the service follows.
export const AUTHZ_LINKS = Symbol('AuthzLinks');
// AUTHZ_TRANSPORT is the microservice's transport, whose connection policy changes go out on.
export const AUTHZ_TRANSPORT = Symbol('AuthzTransport');

export interface AuthzLinks {
  storage: LinkState;
  nats: LinkState;
}

@Injectable()
export class AuthzService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('authz');
  private readonly authorization: LocalAuthorization;
  private nc: NatsConnection | null = null;
  private publisher: PolicyChangedPublisher | null = null;
  private stopPublishing: (() => void) | null = null;

  constructor(
    @Inject(AUTHZ_CONFIG) private readonly config: AuthzConfig,
    @Inject(AUTHZ_STORE) private readonly store: ObjectStore,
    @Inject(AUTHZ_LINKS) private readonly links: AuthzLinks,
    @Inject(AUTHZ_TRANSPORT) private readonly transport: AuthzNatsTransport,
  ) {
    this.authorization = new LocalAuthorization(store, builtinDefinitions(), realClock, this.warn('authorization'), links.storage);
  }

  get authorizer(): Authorizer {
    return this.authorization.authorizer;
  }

  async onApplicationBootstrap(): Promise<void> {
    registerLinkMetric(defaultRegistry(), [this.links.storage, this.links.nats]);
    // start creates the missing bootstrap policy and resolves once the policy is loaded.
    await this.authorization.start();
  }

  // serving starts publishing policy changes once the transport listens.
  serving(): void {
    const nc = this.transport.unwrap<NatsConnection>();
    this.nc = nc;
    const publisher = publishPolicyChanged(nc, { onError: this.warn('publishing a policy change') });
    this.publisher = publisher;
    this.stopPublishing = this.authorization.cache.onChange(() => publisher.changed());
    // Gateways may hold decisions taken before this replica loaded the policy.
    publisher.changed();
    this.logger.log(`authz serving on ${this.config.nats.url}`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopPublishing?.();
    this.publisher?.stop();
    if (this.nc && !this.nc.isClosed()) await this.nc.drain();
    this.authorization.stop();
    await this.store.close();
  }

  private warn(what: string): (err: unknown) => void {
    return (err) => this.logger.warn(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
