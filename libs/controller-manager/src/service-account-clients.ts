// ServiceAccountClients gives each controller its own identity, as kube-controller-manager does
// with --use-service-account-credentials (its DynamicControllerClientBuilder): the root client
// only ensures the ServiceAccount kube-system/<name> and asks the TokenRequest API for its
// token; the controller's client then sends that token, which is asked for again once 80% of
// its lifetime has passed. Requests are thus authorized as system:serviceaccount:kube-system:<name>.
import { KubeObject } from '@plinth/api';
import { ApiClient, ClientCredentials, resourcePath } from '@plinth/client';
import { Clock, isStatusError, Timer } from '@plinth/machinery';

export const serviceAccountNamespace = 'kube-system';

// tokenExpirationSeconds is the lifetime asked for (Kubernetes' controller client builder asks
// for one hour), and refreshLeeway the fraction of it left when the token is renewed.
export const tokenExpirationSeconds = 3600;
const refreshLeeway = 0.2;
const retryAfterMs = 1000;

interface TokenRequestAnswer {
  spec: { expirationSeconds: number };
  status: { token: string; expirationTimestamp: string };
}

// refreshDelay is how long a token granted for expirationSeconds stays in use. It counts from
// the lifetime the server granted, not its expirationTimestamp, so that the controller's clock
// need not agree with the server's.
export function refreshDelay(expirationSeconds: number): number {
  return Math.max(0, expirationSeconds * 1000 * (1 - refreshLeeway));
}

class ServiceAccountToken {
  private timer: Timer | null = null;
  private stopped = false;
  current = '';

  constructor(
    private readonly root: ApiClient,
    private readonly clock: Clock,
    private readonly name: string,
    private readonly onError: (err: unknown) => void,
  ) {}

  // obtain ensures the service account, fetches its first token and schedules the renewals.
  async obtain(): Promise<void> {
    await this.ensureServiceAccount();
    await this.renew();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private async ensureServiceAccount(): Promise<void> {
    const account: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: this.name, namespace: serviceAccountNamespace } };
    try {
      await this.root.create(resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts', namespace: serviceAccountNamespace }), account);
    } catch (err) {
      if (!(isStatusError(err) && err.code === 409)) throw err;
    }
  }

  private async renew(): Promise<void> {
    const path = resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts', namespace: serviceAccountNamespace, name: this.name, subresource: 'token' });
    const answer = await this.root.create<TokenRequestAnswer>(path, {
      apiVersion: 'authentication.platform.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: tokenExpirationSeconds },
    });
    this.current = answer.status.token;
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => void this.renewLater(), refreshDelay(answer.spec.expirationSeconds));
  }

  // renewLater renews in the background; a failed renewal keeps the token and tries again soon
  // (the service account may have been deleted meanwhile: it is ensured again).
  private async renewLater(): Promise<void> {
    try {
      await this.ensureServiceAccount();
      await this.renew();
    } catch (err) {
      this.onError(err);
      if (!this.stopped) this.timer = this.clock.setTimeout(() => void this.renewLater(), retryAfterMs);
    }
  }
}

export class ServiceAccountClients {
  private readonly identities = new Map<string, { token: ServiceAccountToken; client: ApiClient }>();

  // root talks with the controller manager's own credentials; base holds the server and its CA
  // (its client certificate and token are not passed on to the controllers' clients).
  constructor(
    private readonly root: ApiClient,
    private readonly base: ClientCredentials,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  // clientFor returns a client acting as the service account kube-system/<name> (the same one
  // each time for a name and user agent). The user agent names the field manager of its writes
  // (kube-controller-manager unless given: kubelet, kube-scheduler).
  async clientFor(name: string, userAgent = this.base.userAgent): Promise<ApiClient> {
    const key = `${name}\n${userAgent ?? ''}`;
    const known = this.identities.get(key);
    if (known) return known.client;
    const token = new ServiceAccountToken(this.root, this.clock, name, this.onError);
    await token.obtain();
    const client = new ApiClient({ server: this.base.server, caPem: this.base.caPem, userAgent, token: () => token.current });
    this.identities.set(key, { token, client });
    return client;
  }

  stop(): void {
    for (const { token, client } of this.identities.values()) {
      token.stop();
      client.close();
    }
    this.identities.clear();
  }
}
