import { refreshDelay, tokenExpirationSeconds } from './service-account-clients';

describe('service-account token refresh', () => {
  it('renews a token once 80% of the lifetime granted has passed', () => {
    expect(refreshDelay(tokenExpirationSeconds)).toBe(2880 * 1000);
    expect(refreshDelay(600)).toBe(480 * 1000);
  });

  it('renews at once a token granted no lifetime', () => {
    expect(refreshDelay(0)).toBe(0);
  });
});
