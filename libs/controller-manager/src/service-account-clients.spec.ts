import { refreshDelay, tokenExpirationSeconds } from './service-account-clients';

describe('service-account token refresh', () => {
  it('renews a token once 80% of its lifetime has passed', () => {
    const issued = Date.parse('2026-01-01T00:00:00Z');
    expect(refreshDelay(issued, issued + tokenExpirationSeconds * 1000)).toBe(2880 * 1000);
    expect(refreshDelay(issued, issued + 600 * 1000)).toBe(480 * 1000);
  });

  it('renews at once a token that already expired', () => {
    expect(refreshDelay(1000, 500)).toBe(0);
  });
});
