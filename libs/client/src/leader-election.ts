// LeaderElector keeps one active instance of a component through a Lease, as client-go's
// leaderelection does with the leases lock: a candidate acquires the Lease when it is free or
// its holder has not renewed within leaseDurationSeconds, the leader renews every retry period
// and steps down when it cannot renew within the renew deadline, and a leader that stops
// releases the Lease so another takes over at once.
import { KubeObject } from '@plinth/api';
import { Clock, isStatusError, Timer } from '@plinth/machinery';
import { ApiClient, resourcePath } from './api-client';

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  onStartedLeading: () => void | Promise<void>;
  onStoppedLeading: () => void | Promise<void>;
  onError?: (err: unknown) => void;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class LeaderElector {
  private timer: Timer | null = null;
  private leading = false;
  private lastRenew = 0;
  private stopped = false;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly options: LeaderElectionOptions,
  ) {
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    void this.tick();
  }

  // stop steps down, releasing the Lease if held.
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    if (this.leading) {
      this.leading = false;
      await this.release().catch((err: unknown) => this.options.onError?.(err));
      await this.options.onStoppedLeading();
    }
  }

  private path(name?: string): string {
    return resourcePath({ group: 'coordination.platform.io', version: 'v1', resource: 'leases', namespace: this.options.namespace, name });
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      const held = await this.tryAcquireOrRenew();
      // stop() may have stepped down while the request was in flight: leading again would
      // start the controllers after their stop.
      if (this.stopped) return;
      if (held) this.lastRenew = this.clock.now();
      if (held && !this.leading) {
        this.leading = true;
        await this.options.onStartedLeading();
      } else if (!held && this.leading && this.clock.now() - this.lastRenew > this.renewDeadlineMs) {
        this.leading = false;
        await this.options.onStoppedLeading();
      }
    } catch (err) {
      this.options.onError?.(err);
    }
    if (!this.stopped) this.timer = this.clock.setTimeout(() => void this.tick(), this.retryPeriodMs);
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    const mine: LeaseSpec = { holderIdentity: this.options.identity, leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000), renewTime: microTime(now) };
    let lease: KubeObject;
    try {
      lease = await this.client.get(this.path(this.options.name));
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
      try {
        await this.client.create(this.path(), { metadata: { name: this.options.name }, spec: { ...mine, acquireTime: microTime(now), leaseTransitions: 0 } });
        return true;
      } catch (createErr) {
        if (isStatusError(createErr) && createErr.code === 409) return false;
        throw createErr;
      }
    }
    const spec = (lease.spec ?? {}) as LeaseSpec;
    const holder = spec.holderIdentity ?? '';
    const renewed = spec.renewTime ? Date.parse(spec.renewTime) : 0;
    const expired = !holder || now - renewed > (spec.leaseDurationSeconds ?? 0) * 1000;
    if (holder !== this.options.identity && !expired) return false;
    const next: LeaseSpec =
      holder === this.options.identity
        ? { ...spec, ...mine }
        : { ...mine, acquireTime: microTime(now), leaseTransitions: (spec.leaseTransitions ?? 0) + 1 };
    try {
      await this.client.update(this.path(this.options.name), { ...lease, spec: next });
      return true;
    } catch (err) {
      if (isStatusError(err) && err.code === 409) return false;
      throw err;
    }
  }

  // release empties the holder so that a waiting candidate acquires the Lease at once.
  private async release(): Promise<void> {
    const lease = await this.client.get(this.path(this.options.name));
    const spec = (lease.spec ?? {}) as LeaseSpec;
    if (spec.holderIdentity !== this.options.identity) return;
    await this.client.update(this.path(this.options.name), { ...lease, spec: { ...spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(this.clock.now()) } });
  }
}
