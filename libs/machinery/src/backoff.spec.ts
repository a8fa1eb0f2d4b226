import { Backoff, LinkState, probeLink, retryUntilDone } from './backoff';

describe('Backoff', () => {
  it('doubles each wait up to the cap, with up to half of it again as jitter, and starts over on reset', () => {
    let r = 0;
    const backoff = new Backoff({ initialMs: 100, maxMs: 1000, random: () => r });
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([100, 200, 400, 800, 1000]);
    r = 0.5;
    expect(backoff.next()).toBe(1000);
    backoff.reset();
    expect(backoff.next()).toBe(125);
    expect(backoff.next()).toBe(250);
  });
});

describe('LinkState', () => {
  it('logs once when the link is lost and once when it is back, whatever the number of reports', () => {
    const lines: string[] = [];
    let now = 1000;
    const link = new LinkState('storage', (line) => lines.push(line), () => now);
    link.ok();
    expect(link.up).toBe(true);
    for (let i = 0; i < 50; i++) link.failed(new Error(`connection refused ${i}`));
    expect(link.up).toBe(false);
    now += 3200;
    link.ok();
    link.ok();
    expect(link.up).toBe(true);
    expect(lines).toEqual(['link to storage lost: connection refused 0', 'link to storage back after 3.2 s (last error: connection refused 49)']);
    const nats = new LinkState('nats', (line) => lines.push(line), () => now);
    nats.waiting();
    expect(nats.up).toBe(false);
    now += 500;
    nats.ok();
    expect(lines[2]).toBe('link to nats back after 0.5 s (last error: not connected yet)');
  });
});

describe('retryUntilDone', () => {
  it('retries a failing operation with backoff, reporting to the link, until it succeeds', async () => {
    const waits: number[] = [];
    const clock = {
      now: () => 0,
      setTimeout: (fn: () => void, ms: number) => {
        waits.push(ms);
        fn();
        return { cancel: () => undefined };
      },
      setInterval: () => ({ cancel: () => undefined }),
    };
    const lines: string[] = [];
    const link = new LinkState('etcd', (line) => lines.push(line), () => 0);
    let calls = 0;
    const result = await retryUntilDone(
      async () => {
        if (++calls < 4) throw new Error('connection refused');
        return 'done';
      },
      { clock, link, backoff: new Backoff({ initialMs: 10, maxMs: 25, jitter: 0 }) },
    );
    expect(result).toBe('done');
    expect(waits).toEqual([10, 20, 25]);
    expect(lines).toEqual(['link to etcd lost: connection refused', 'link to etcd back after 0.0 s (last error: connection refused)']);
  });
});

describe('probeLink', () => {
  it('checks the link at each tick and reports the outcome', async () => {
    let tick: () => void = () => undefined;
    const clock = { now: () => 0, setTimeout: () => ({ cancel: () => undefined }), setInterval: (fn: () => void) => ((tick = fn), { cancel: () => (tick = () => undefined) }) };
    const lines: string[] = [];
    const link = new LinkState('etcd', (line) => lines.push(line), () => 0);
    let healthy = false;
    const stop = probeLink(link, async () => {
      if (!healthy) throw new Error('connection refused');
    }, clock, 1000);
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    tick();
    await settle();
    tick();
    await settle();
    expect(link.up).toBe(false);
    healthy = true;
    tick();
    await settle();
    expect(link.up).toBe(true);
    stop();
    expect(lines).toEqual(['link to etcd lost: connection refused', 'link to etcd back after 0.0 s (last error: connection refused)']);
  });
});
