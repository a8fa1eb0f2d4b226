// eventually is the one polling helper of the tests: it asks attempt again until attempt holds,
// for what a test cannot be told of (an object a controller writes, a line in a log, a
// series Prometheus scrapes). An attempt fails by throwing, or by answering undefined or
// false, or, given until, by an answer until refuses; it holds otherwise, and eventually resolves
// with its answer. Past timeoutMs it rejects with what it waited for and the last failure (the
// last answer or error), so the failure says what was seen. A GiveUp thrown by attempt ends the
// wait at once: what cannot change by waiting.
export interface EventuallyOptions<T> {
  // what names the awaited condition in the failure (a function: read when failing).
  what?: string | (() => string);
  // until judges an answer; without it, any answer but undefined and false holds.
  until?: (answer: T) => boolean;
  timeoutMs?: number;
  intervalMs?: number;
}

export class GiveUp extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GiveUp';
  }
}

export async function eventually<T>(attempt: () => T | undefined | false | Promise<T | undefined | false>, options: EventuallyOptions<T> = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const intervalMs = options.intervalMs ?? 50;
  const deadline = Date.now() + timeoutMs;
  let last = 'no attempt finished';
  for (;;) {
    try {
      const answer = await attempt();
      if (options.until ? options.until(answer as T) : answer !== undefined && answer !== false) return answer as T;
      last = `last answer: ${describe(answer)}`;
    } catch (err) {
      if (err instanceof GiveUp) throw err;
      last = `last error: ${err instanceof Error ? err.message : describe(err)}`;
    }
    if (Date.now() > deadline) {
      const what = typeof options.what === 'function' ? options.what() : (options.what ?? 'the condition');
      throw new Error(`${what} did not hold within ${timeoutMs} ms; ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

// gone waits until read finds nothing: an answer with status 404, or a rejection with code 404
// (a Status error). A 2xx answer or a value means the object is still there; any other
// answer or error fails at once, so a refusal or an outage is never taken for a deletion.
export async function gone(read: () => Promise<unknown>, options: Omit<EventuallyOptions<true>, 'until'> = {}): Promise<void> {
  await eventually<true>(async () => {
    let answer: unknown;
    try {
      answer = await read();
    } catch (err) {
      if (codeOf(err) === 404) return true;
      throw new GiveUp(`not a 404: ${err instanceof Error ? err.message : describe(err)}`);
    }
    const status = codeOf(answer, 'status');
    if (status === 404) return true;
    if (status !== undefined && (status < 200 || status > 299)) throw new GiveUp(`not a 404: status ${status}`);
    return false;
  }, { what: 'gone', ...options });
}

function codeOf(value: unknown, field: 'code' | 'status' = 'code'): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const code = (value as Record<string, unknown>)[field];
  return typeof code === 'number' ? code : undefined;
}

function describe(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 2000);
  } catch {
    return String(value);
  }
}
