// A controller's service-account identity through the TokenRequest API: the client acts as
// system:serviceaccount:kube-system:<name>, and its token is renewed (the service account
// ensured again) once 80% of the token's lifetime has passed on the controller's clock.
import { ApiClient } from '@plinth/client';
import { ServiceAccountClients } from '@plinth/controller-manager';
import { isStatusError } from '@plinth/machinery';
import { eventually, FakeClock } from '@plinth/testing';
import { startTestApiServer, TestApiServer, testTokens } from '@plinth/testing-server';

describe('ServiceAccountClients', () => {
  let server: TestApiServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestApiServer();
    root = new ApiClient({ server: server.url, caPem: '', token: testTokens.admin });
  });

  afterAll(async () => {
    root.close();
    await server.stop();
  });

  const whoAmI = async (client: ApiClient): Promise<string> => {
    try {
      const review = await client.create<{ status: { userInfo: { username: string } } }>('/apis/authentication.platform.io/v1/selfsubjectreviews', {
        apiVersion: 'authentication.platform.io/v1',
        kind: 'SelfSubjectReview',
      });
      return review.status.userInfo.username;
    } catch (err) {
      if (isStatusError(err)) return `error ${err.code}`;
      throw err;
    }
  };

  it('ensures the service account, acts as it, and renews its token before expiry', async () => {
    const clock = new FakeClock();
    const identities = new ServiceAccountClients(root, { server: server.url, caPem: '' }, clock);
    try {
      const client = await identities.clientFor('renewed-controller');
      expect(await identities.clientFor('renewed-controller')).toBe(client);
      expect(await whoAmI(client)).toBe('system:serviceaccount:kube-system:renewed-controller');

      // Without its service account the token no longer authenticates...
      await root.delete('/api/v1/namespaces/kube-system/serviceaccounts/renewed-controller');
      expect(await whoAmI(client)).toBe('error 401');
      // ...until the renewal, due after 80% of the hour the token lasts, ensures it again.
      clock.advance(2879 * 1000);
      expect(await whoAmI(client)).toBe('error 401');
      clock.advance(1000);
      await eventually(() => whoAmI(client), { until: (who) => who === 'system:serviceaccount:kube-system:renewed-controller', what: 'the renewed token', timeoutMs: 10_000 });
    } finally {
      identities.stop();
    }
  });
});
