// ServerLifecycle's ending of open watches, over a real HTTP server: with
// --shutdown-watch-termination-grace-period 0 (kube-apiserver's default) a watch keeps streaming
// while the other requests drain and ends after them; with a grace period every watch ends as
// soon as the listener stops, and the shutdown waits for the watches and the other requests.
import { createServer, IncomingMessage, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { realClock } from '@plinth/machinery';
import { FakeClock } from '@plinth/testing';
import { ServerLifecycle } from './lifecycle';

interface Harness {
  lifecycle: ServerLifecycle;
  server: Server;
  port: number;
  // send writes one event line to every open watch.
  send(line: string): void;
  // answer lets the held non-long-running request answer.
  answer(): void;
  // heldArrived resolves once the held request is being served.
  heldArrived: Promise<void>;
}

// startServer serves /watch as a watch (an event line per send, ended between two events when
// the lifecycle says) and /held as a request that answers when told.
async function startServer(): Promise<Harness> {
  const lifecycle = new ServerLifecycle(realClock);
  const watches = new Set<(line: string) => void>();
  let answerHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (answerHeld = resolve));
  let arrived: () => void = () => undefined;
  const heldArrived = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((req, res) => {
    lifecycle.track(res);
    if (req.url === '/held') {
      arrived();
      void held.then(() => res.end('answered\n'));
      return;
    }
    lifecycle.watching(res);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    const write = (line: string) => res.write(`${line}\n`);
    watches.add(write);
    lifecycle.onEnded(() => {
      watches.delete(write);
      void lifecycle.released().then(() => res.end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    lifecycle,
    server,
    port: (server.address() as AddressInfo).port,
    send: (line) => watches.forEach((write) => write(line)),
    answer: () => answerHeld(),
    heldArrived,
  };
}

interface Stream {
  lines: string[];
  trailing: string;
  complete: boolean;
  // received resolves once n lines arrived.
  received(n: number): Promise<void>;
  closed: Promise<void>;
}

function openWatch(port: number): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/watch', agent: false }, (res: IncomingMessage) => {
      const waiting: { n: number; resolve: () => void }[] = [];
      let closedResolve: () => void = () => undefined;
      const stream: Stream = {
        lines: [],
        trailing: '',
        complete: false,
        received: (n) => (stream.lines.length >= n ? Promise.resolve() : new Promise((r) => waiting.push({ n, resolve: r }))),
        closed: new Promise((r) => (closedResolve = r)),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.trailing += chunk;
        let nl: number;
        while ((nl = stream.trailing.indexOf('\n')) >= 0) {
          stream.lines.push(stream.trailing.slice(0, nl));
          stream.trailing = stream.trailing.slice(nl + 1);
        }
        for (const w of waiting.filter((w) => stream.lines.length >= w.n)) w.resolve();
      });
      res.on('close', () => {
        stream.complete = res.complete;
        closedResolve();
      });
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

async function holdRequest(h: Harness): Promise<{ answered: Promise<string> }> {
  const answered = new Promise<string>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: h.port, path: '/held', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
  await h.heldArrived;
  return { answered };
}

describe('ServerLifecycle ending watches at shutdown', () => {
  it('calls each watch still open once when watches must end, none that ended first, and one opened after at once', async () => {
    const h = await startServer();
    const calls: string[] = [];
    h.lifecycle.onEnded(() => calls.push('open'));
    const cancel = h.lifecycle.onEnded(() => calls.push('ended first'));
    cancel();
    await h.lifecycle.shutdown(h.server, { delayMs: 0, gracePeriodMs: 1000 });
    h.lifecycle.onEnded(() => calls.push('opened after'));
    expect(calls).toEqual(['open', 'opened after']);
  });

  it('with no watch grace period, keeps a watch streaming while a request drains, then ends it at an event boundary', async () => {
    const h = await startServer();
    const watch = await openWatch(h.port);
    const { answered } = await holdRequest(h);
    let shutDown = false;
    const shutdown = h.lifecycle.shutdown(h.server, { delayMs: 0, gracePeriodMs: 60_000 }).then(() => (shutDown = true));
    // The listener has stopped; the watch still receives events.
    h.send('{"type":"ADDED","n":1}');
    h.send('{"type":"ADDED","n":2}');
    await watch.received(2);
    expect(h.lifecycle.ended.aborted).toBe(false);
    expect(shutDown).toBe(false);
    h.answer();
    expect(await answered).toBe('answered\n');
    await watch.closed;
    await shutdown;
    expect(watch.lines).toEqual(['{"type":"ADDED","n":1}', '{"type":"ADDED","n":2}']);
    expect(watch.complete).toBe(true);
    expect(watch.trailing).toBe('');
    expect(h.server.listening).toBe(false);
  });

  it('with a watch grace period, ends every watch as the listener stops and waits for them and the requests in flight', async () => {
    const h = await startServer();
    const watches = await Promise.all([openWatch(h.port), openWatch(h.port), openWatch(h.port)]);
    await new Promise<void>((resolve) => {
      const poll = () => (h.lifecycle.inFlightRequests === 3 ? resolve() : setImmediate(poll));
      poll();
    });
    h.send('{"type":"ADDED","n":1}');
    await Promise.all(watches.map((w) => w.received(1)));
    const { answered } = await holdRequest(h);
    let shutDown = false;
    const shutdown = h.lifecycle.shutdown(h.server, { delayMs: 0, gracePeriodMs: 60_000, watchGracePeriodMs: 30_000 }).then(() => (shutDown = true));
    // Every watch ends, whole, while the request is still held.
    await Promise.all(watches.map((w) => w.closed));
    for (const w of watches) {
      expect(w.lines).toEqual(['{"type":"ADDED","n":1}']);
      expect(w.complete).toBe(true);
      expect(w.trailing).toBe('');
    }
    expect(shutDown).toBe(false);
    h.answer();
    expect(await answered).toBe('answered\n');
    await shutdown;
    expect(h.lifecycle.inFlightRequests).toBe(0);
  });

  it('paces the closes of ended watches, at least 200 a second and all within the grace period', async () => {
    const clock = new FakeClock();
    const lifecycle = new ServerLifecycle(clock);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const start = clock.now();
    const shutdown = lifecycle.shutdown(server, { delayMs: 0, gracePeriodMs: 1000, watchGracePeriodMs: 20 });
    const closedAt: number[] = [];
    const closes = Array.from({ length: 6 }, () => lifecycle.released().then(() => closedAt.push(clock.now() - start)));
    await new Promise((r) => setImmediate(r));
    for (let ms = 0; ms < 30; ms++) {
      clock.advance(1);
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(closes);
    await shutdown;
    // No watch was open: 200 a second, one every 5 ms, and none later than the 20 ms grace period.
    expect(closedAt).toEqual([0, 5, 10, 15, 20, 20]);
  });
});
