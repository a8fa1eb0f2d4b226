import { RestartPolicy } from './restart-policy';

describe('RestartPolicy', () => {
  const options = { maxRestarts: 3, periodMs: 60_000, initialDelayMs: 1000, maxDelayMs: 3000 };

  it('restarts after a doubling delay, up to its cap, and gives up on one crash more than it restarts within the period', () => {
    const policy = new RestartPolicy(options);
    expect(policy.crashed(0)).toEqual({ restart: true, delayMs: 1000, crashes: 1 });
    expect(policy.crashed(5_000)).toEqual({ restart: true, delayMs: 2000, crashes: 2 });
    expect(policy.crashed(10_000)).toEqual({ restart: true, delayMs: 3000, crashes: 3 });
    expect(policy.crashed(59_999)).toEqual({ restart: false, crashes: 4 });
  });

  it('forgets the crashes older than the period: a worker that stays up long enough starts over at the first delay', () => {
    const policy = new RestartPolicy(options);
    policy.crashed(0);
    policy.crashed(1_000);
    policy.crashed(2_000);
    expect(policy.crashed(61_500)).toEqual({ restart: true, delayMs: 2000, crashes: 2 });
    expect(policy.crashed(200_000)).toEqual({ restart: true, delayMs: 1000, crashes: 1 });
  });
});
