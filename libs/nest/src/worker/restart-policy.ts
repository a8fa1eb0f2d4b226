// RestartPolicy decides, when a supervised worker thread ended without being asked to, whether
// to start it again and after how long, as a supervisor does: restarts are delayed by a backoff
// that doubles with each crash of the period (kubelet's CrashLoopBackOff), and a worker that
// crashed more than maxRestarts times within periodMs is given up on (Erlang/OTP's restart
// intensity), so that what supervises the process sees it fail instead of a server that serves on
// without its controllers.
export interface RestartPolicyOptions {
  // maxRestarts is how many crashes within periodMs are restarted; one more gives up.
  maxRestarts: number;
  periodMs: number;
  // initialDelayMs is the delay after the first crash of a period; each further one doubles
  // it, up to maxDelayMs.
  initialDelayMs: number;
  maxDelayMs: number;
}

export type RestartDecision = { restart: true; delayMs: number; crashes: number } | { restart: false; crashes: number };

// defaultRestartPolicy: 1 s, 2 s, 4 s, 8 s, 16 s; a sixth crash within 10 minutes gives up.
export const defaultRestartPolicy: RestartPolicyOptions = { maxRestarts: 5, periodMs: 10 * 60_000, initialDelayMs: 1000, maxDelayMs: 30_000 };

export class RestartPolicy {
  private crashTimes: number[] = [];

  constructor(private readonly options: RestartPolicyOptions = defaultRestartPolicy) {}

  // crashed records a crash at nowMs and decides; crashes older than the period are forgotten.
  crashed(nowMs: number): RestartDecision {
    const { maxRestarts, periodMs, initialDelayMs, maxDelayMs } = this.options;
    this.crashTimes = this.crashTimes.filter((at) => nowMs - at < periodMs);
    this.crashTimes.push(nowMs);
    const crashes = this.crashTimes.length;
    if (crashes > maxRestarts) return { restart: false, crashes };
    return { restart: true, delayMs: Math.min(maxDelayMs, initialDelayMs * 2 ** (crashes - 1)), crashes };
  }
}
