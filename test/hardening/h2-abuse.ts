// Hostile HTTP/2, beyond what a well-behaved client sends: streams reset in the middle of their
// body, floods of SETTINGS and PING frames, a watch whose client never opens its flow-control
// window, a header list past the limit, more streams on one connection than the server allows.
// Each case asserts a Status answer or a clean refusal (GOAWAY, RST_STREAM), no object written by
// a request that never ended, and the server still serving on a fresh connection. The specs of
// both forms (all-in-one.spec.ts, distributed.spec.ts) run them against their server.
import { ClientHttp2Session, connect, constants, IncomingHttpHeaders } from 'node:http2';
import { eventually } from '@plinth/testing';
import { errorCode, frame, frameFlag, frameType, goAwayCode, headerBlock, openRawH2 } from './h2-frames';
import { HostileTarget } from './hostile-run';

const namespace = 'h2-abuse';
const serviceAccounts = `/api/v1/namespaces/${namespace}/serviceaccounts`;

async function session(target: HostileTarget, settings: { initialWindowSize?: number } = {}): Promise<ClientHttp2Session> {
  const own = connect(`https://127.0.0.1:${target.port}`, { ca: target.ca, servername: 'localhost', settings });
  own.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    own.once('connect', () => resolve());
    own.once('error', reject);
  });
  return own;
}

async function request(target: HostileTarget, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  const own = await session(target);
  try {
    return await new Promise((resolve, reject) => {
      const stream = own.request({ ':method': method, ':path': path, authorization: `Bearer ${target.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) });
      let status = 0;
      const chunks: Buffer[] = [];
      stream.on('response', (headers: IncomingHttpHeaders) => (status = Number(headers[':status'])));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
      stream.on('error', reject);
      stream.end(body === undefined ? undefined : JSON.stringify(body));
    });
  } finally {
    own.destroy();
  }
}

async function stillServes(target: HostileTarget): Promise<void> {
  const answer = await request(target, 'GET', `/api/v1/namespaces/${namespace}`);
  expect(answer.status).toBe(200);
}

async function metricSum(target: HostileTarget, name: string, ...fragments: string[]): Promise<number> {
  const metrics = (await request(target, 'GET', '/metrics')).body;
  return metrics
    .split('\n')
    .filter((line) => (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && fragments.every((f) => line.includes(f)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const openWatches = (target: HostileTarget) => metricSum(target, 'apiserver_longrunning_requests', 'verb="WATCH"', 'resource="serviceaccounts"');

async function names(target: HostileTarget, prefix: string): Promise<string[]> {
  const list = await request(target, 'GET', serviceAccounts);
  expect(list.status).toBe(200);
  return (JSON.parse(list.body) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).filter((n) => n.startsWith(prefix));
}

// h2AbuseTests adds the cases to the calling describe, against the target its beforeAll made.
export function h2AbuseTests(target: () => HostileTarget): void {
  beforeAll(async () => {
    const made = await request(target(), 'POST', '/api/v1/namespaces', { metadata: { name: namespace } });
    expect([201, 409]).toContain(made.status);
  });

  it('resets streams in the middle of their body: nothing of them is written, no failure of its own reported, the server serves on', async () => {
    const panicsBefore = await metricSum(target(), 'apiserver_request_panics_total');
    const hostile = await session(target());
    const reset = Array.from({ length: 100 }, (_, i) => {
      const body = Buffer.from(JSON.stringify({ metadata: { name: `reset-${i}`, annotations: { padding: 'x'.repeat(4096) } } }));
      const stream = hostile.request({ ':method': 'POST', ':path': serviceAccounts, authorization: `Bearer ${target().adminToken}`, 'content-type': 'application/json', 'content-length': String(body.length) });
      stream.on('error', () => undefined);
      const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode)));
      stream.write(body.subarray(0, body.length >> 1), () => stream.close(constants.NGHTTP2_CANCEL));
      return closed;
    });
    expect(new Set(await Promise.all(reset))).toEqual(new Set([constants.NGHTTP2_CANCEL]));
    hostile.destroy();
    await stillServes(target());
    expect(await names(target(), 'reset-')).toEqual([]);
    // A client that went away is no fault of the server's (it was counted as one over HTTP/2).
    expect(await metricSum(target(), 'apiserver_request_panics_total')).toBe(panicsBefore);
  }, 60_000);

  // nghttp2 (under node:http2) drops a session that floods it with frames whose answers pile
  // up: the connection closes (node sends no GOAWAY first: its session is already destroyed when
  // the application hears of it), the other connections are served on.
  it('ends the connection of a flood of SETTINGS and PING frames, or answers them all, serving the others', async () => {
    const raw = await openRawH2(target());
    const acks = (type: number) => raw.frames.filter((f) => f.type === type && f.flags & frameFlag.ack).length;
    try {
      const ping = frame(frameType.ping, 0, 0, Buffer.alloc(8, 7));
      const settings = frame(frameType.settings, 0, 0);
      raw.write(Buffer.concat([...Array.from({ length: 20_000 }, () => ping), ...Array.from({ length: 5_000 }, () => settings)]));
      await raw.until(() => raw.ended || (acks(frameType.ping) === 20_000 && acks(frameType.settings) === 5_001));
    } finally {
      raw.close();
    }
    // Ended by the server (with a GOAWAY ENHANCE_YOUR_CALM if it could send one), or every
    // frame answered: never a hang, never another error code.
    const goAway = goAwayCode(raw.frames);
    expect(goAway === undefined || goAway === errorCode.enhanceYourCalm).toBe(true);
    await stillServes(target());
  }, 60_000);

  it('ends the watch of a client that never opens its flow-control window, counting it, while another watch gets every event', async () => {
    const watchesBefore = await openWatches(target());
    const terminatedBefore = await metricSum(target(), 'apiserver_terminated_watchers_total', 'resource="serviceaccounts"');
    const stalled = await session(target(), { initialWindowSize: 0 });
    const reader = await session(target());
    try {
      const path = `${serviceAccounts}?watch=1&resourceVersion=0`;
      const stalledStream = stalled.request({ ':path': path, authorization: `Bearer ${target().adminToken}` });
      stalledStream.on('error', () => undefined);
      const stalledEnded = new Promise<number>((resolve) => stalledStream.once('close', () => resolve(stalledStream.rstCode)));
      const seen: string[] = [];
      const readerStream = reader.request({ ':path': path, authorization: `Bearer ${target().adminToken}` });
      let buffered = '';
      readerStream.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
          const event = JSON.parse(buffered.slice(0, nl)) as { type: string; object: { metadata: { name: string } } };
          if (event.type === 'ADDED') seen.push(event.object.metadata.name);
          buffered = buffered.slice(nl + 1);
        }
      });
      await eventually(async () => (await openWatches(target())) >= watchesBefore + 2, { timeoutMs: 10_000, what: 'both watches open' });
      // 200 KiB a ServiceAccount: past the server's 4 MiB for one watcher after about 20.
      const payload = 'y'.repeat(200 * 1024);
      let created = 0;
      while (created < 60 && (await metricSum(target(), 'apiserver_terminated_watchers_total', 'resource="serviceaccounts"')) === terminatedBefore) {
        const made = await request(target(), 'POST', serviceAccounts, { metadata: { name: `window-${created}`, annotations: { payload } } });
        expect(made.status).toBe(201);
        created++;
      }
      expect(await metricSum(target(), 'apiserver_terminated_watchers_total', 'resource="serviceaccounts"')).toBe(terminatedBefore + 1);
      expect(created).toBeLessThan(60);
      // The ended watch's last bytes never leave (the window stays shut): its stream is reset.
      expect(await stalledEnded).toBe(constants.NGHTTP2_CANCEL);
      await eventually(() => created > 0 && Array.from({ length: created }, (_, i) => `window-${i}`).every((n) => seen.includes(n)), {
        timeoutMs: 30_000,
        what: () => `the reading watch seeing all ${created} creates (saw ${seen.filter((n) => n.startsWith('window-')).length})`,
      });
      readerStream.close(constants.NGHTTP2_CANCEL);
    } finally {
      stalled.destroy();
      reader.destroy();
    }
    await eventually(async () => (await openWatches(target())) === watchesBefore, { timeoutMs: 10_000, what: 'the watches closed' });
    await stillServes(target());
  }, 120_000);

  it('refuses a header list past its limit without serving it', async () => {
    const hostile = await session(target());
    try {
      const refused = await new Promise<string>((resolve) => {
        const stream = hostile.request({ ':path': `/api/v1/namespaces/${namespace}`, authorization: `Bearer ${target().adminToken}`, 'x-huge': 'a'.repeat(2 << 20) });
        stream.on('response', (headers) => resolve(`answered ${String(headers[':status'])}`));
        stream.on('error', () => resolve(`reset ${stream.rstCode}`));
        stream.on('close', () => resolve(`reset ${stream.rstCode}`));
        stream.end();
      });
      expect(['answered 431', `reset ${constants.NGHTTP2_REFUSED_STREAM}`, `reset ${constants.NGHTTP2_PROTOCOL_ERROR}`, `reset ${constants.NGHTTP2_ENHANCE_YOUR_CALM}`]).toContain(refused);
    } finally {
      hostile.destroy();
    }
    await stillServes(target());
  }, 30_000);

  // Go's server refuses each stream past the limit with RST_STREAM; nghttp2 (under node:http2)
  // takes the first one past it for a protocol error of the whole connection and closes it (with
  // no GOAWAY, as above): the streams it served are ended with it, other connections served on.
  it('serves 1,000 streams on one connection, closes it at the stream past them, and frees its watches', async () => {
    const watchesBefore = await openWatches(target());
    const raw = await openRawH2(target());
    try {
      // Once the server's SETTINGS (its 1,000-stream limit) is acknowledged, 1,200 watches at once.
      await raw.until((frames) => frames.some((f) => f.type === frameType.settings && !(f.flags & frameFlag.ack)));
      const block = headerBlock([
        [':method', 'GET'],
        [':scheme', 'https'],
        [':authority', '127.0.0.1'],
        // A namespace with nothing in it: each watch costs its stream, no initial events.
        [':path', '/api/v1/namespaces/h2-abuse-quiet/serviceaccounts?watch=1'],
        ['authorization', `Bearer ${target().adminToken}`],
      ]);
      const opens = Array.from({ length: 1_200 }, (_, i) => frame(frameType.headers, frameFlag.endHeaders | frameFlag.endStream, 2 * i + 1, block));
      raw.write(Buffer.concat([frame(frameType.settings, frameFlag.ack, 0), ...opens]));
      await raw.until(() => raw.ended);
      const answered = new Set(raw.frames.filter((f) => f.type === frameType.headers).map((f) => f.streamId));
      expect(answered.size).toBeLessThanOrEqual(1_000);
      expect([...answered].every((id) => id <= 1_999)).toBe(true);
      // Streams ended before the connection are reset (REFUSED_STREAM, PROTOCOL_ERROR, or
      // INTERNAL_ERROR for the watches the closing session cut), never answered twice.
      const resetIds = raw.frames.filter((f) => f.type === frameType.rstStream).map((f) => f.streamId);
      expect(new Set(resetIds).size).toBe(resetIds.length);
      expect(resetIds.every((id) => id % 2 === 1 && id < 2_400)).toBe(true);
    } finally {
      raw.close();
    }
    await eventually(async () => (await openWatches(target())) === watchesBefore, { timeoutMs: 30_000, what: "the connection's watches ended with it" });
    await stillServes(target());
  }, 60_000);
}
