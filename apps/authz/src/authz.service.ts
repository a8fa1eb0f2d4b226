// AuthzService is RBAC as a service: the policy cache over the storage service, the ClusterRole
// aggregator and the bootstrap policy (LocalAuthorization), answering gateways over NATS and
// telling them when the policy changed. It starts whatever is down: it waits for storage (to
// write the bootstrap policy and load the policy) and then for NATS, retrying meanwhile, and
// logs once when either link is lost and once when it is back (served as plinth_link_up{link}).
// It owns the shutdown order: stop taking questions and answer those received, drain NATS, then
// stop following storage and close it.
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { LocalAuthorization } from '@plinth/authz';
import { AuthorizerService, connectNats, PolicyChangedPublisher, publishPolicyChanged, serveAuthorizer } from '@plinth/authz-nats';
import { LinkState, realClock } from '@plinth/machinery';
import { defaultRegistry, registerLinkMetric } from '@plinth/metrics';
import { builtinDefinitions } from '@plinth/registry';
import { ObjectStore } from '@plinth/storage';
import { AuthzConfig } from './authz-config';

export const AUTHZ_CONFIG = Symbol('AuthzConfig');
// AUTHZ_STORE is the storage service the policy is read from (GrpcObjectStore).
export const AUTHZ_STORE = Symbol('AuthzStore');

@Injectable()
export class AuthzService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('authz');
  private authorization: LocalAuthorization | null = null;
  private nc: NatsConnection | null = null;
  private publisher: PolicyChangedPublisher | null = null;
  private stopPublishing: (() => void) | null = null;
  private service: AuthorizerService | null = null;
  private readonly links = { storage: new LinkState('storage', (line) => this.logger.warn(line)), nats: new LinkState('nats', (line) => this.logger.warn(line)) };

  constructor(
    @Inject(AUTHZ_CONFIG) private readonly config: AuthzConfig,
    @Inject(AUTHZ_STORE) private readonly store: ObjectStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    registerLinkMetric(defaultRegistry(), [this.links.storage, this.links.nats]);
    this.authorization = new LocalAuthorization(this.store, builtinDefinitions(), realClock, this.warn('authorization'), this.links.storage);
    // start creates the missing bootstrap policy and resolves once the policy is loaded.
    await this.authorization.start();
    this.nc = await connectNats({ settings: this.config.nats, name: 'plinth-authz', link: this.links.nats });
    const publisher = publishPolicyChanged(this.nc, { onError: this.warn('publishing a policy change') });
    this.publisher = publisher;
    this.stopPublishing = this.authorization.cache.onChange(() => publisher.changed());
    this.service = await serveAuthorizer(this.nc, this.authorization.authorizer, { onError: this.warn('answering') });
    // Gateways may hold decisions taken before this replica loaded the policy.
    publisher.changed();
    this.logger.log(`authz serving on ${this.config.nats.url}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.service?.stop();
    this.stopPublishing?.();
    this.publisher?.stop();
    if (this.nc && !this.nc.isClosed()) await this.nc.drain();
    this.authorization?.stop();
    await this.store.close();
  }

  private warn(what: string): (err: unknown) => void {
    return (err) => this.logger.warn(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
