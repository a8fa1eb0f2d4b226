// The bad-input suite against the distributed gateway: real etcd and nats-server, the storage,
// authz and gateway apps each in its own process. The same hostile requests as the all-in-one's
// run (a fifth of them over HTTP/2); the gateway's own state is checked by behaviour (after-run.ts) and by its process still
// running.
import { DistributedPlinth, startDistributed } from '../distributed';
import { behaviourAfterRun, failureReport } from './after-run';
import { credentialForger } from './credentials';
import { runnableCases } from './generate';
import { h2AbuseTests } from './h2-abuse';
import { HostileTarget, hostileTransport, runHostileCases } from './hostile-run';
import { seedFromEnv } from './prng';
import { defaultSeed } from './seed';

const seed = seedFromEnv(defaultSeed);

describe(`hostile requests against the distributed gateway (HARDENING_SEED=${seed})`, () => {
  let plinth: DistributedPlinth;
  let target: HostileTarget;

  beforeAll(async () => {
    plinth = await startDistributed({});
    target = { port: plinth.port, ca: plinth.ca, adminToken: 'admin-token', unprivilegedToken: 'bob-token', forge: credentialForger(plinth.serviceAccountKey) };
  }, 120000);

  afterAll(() => plinth?.stop());

  it('answers every hostile request with a Status or a refusal, changes nothing it refuses, and keeps running', async () => {
    const { cases } = runnableCases(seed);
    const report = await runHostileCases(target, cases, hostileTransport);

    expect(failureReport(seed, cases.length, report.failures)).toBe('');
    expect(report.sentOverH2).toBeGreaterThanOrEqual(250);
    expect(plinth.gatewayExited()).toBe(false);
    expect(await behaviourAfterRun(target)).toEqual({ created: 201, pollutedAnswers: [], unprivilegedList: 403, healthz: '200 ok' });
  }, 300000);

  describe('hostile HTTP/2', () => {
    h2AbuseTests(() => target);
  });
});
