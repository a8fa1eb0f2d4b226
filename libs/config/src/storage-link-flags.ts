// StorageLinkFlags are the limits of a client's link to the storage service, the same flags for
// every app that has one (the gateway, authz): --storage-max-pending-calls, how many calls may
// await their answers on the link before one more is refused at once (503), and
// --storage-keepalive-time / --storage-keepalive-timeout, how often the link pings a quiet
// storage service and how long it waits for the answer before it resets the link.
import { FlagError, FlagSetter, flagValues } from './flag-set';

export interface StorageLinkFlags {
  maxPendingCalls: number;
  keepaliveTimeMs: number;
  keepaliveTimeoutMs: number;
}

// The defaults: 10,000 calls; a ping every 30 s, answered within 10 s (kube-apiserver's own etcd
// client's keepalive).
export const defaultStorageLinkFlags: StorageLinkFlags = {
  maxPendingCalls: 10_000,
  keepaliveTimeMs: 30_000,
  keepaliveTimeoutMs: 10_000,
};

export const storageLinkFlagSetters: Record<string, FlagSetter<StorageLinkFlags>> = {
  'storage-max-pending-calls': (f, v) => (f.maxPendingCalls = positiveInt('storage-max-pending-calls', v)),
  'storage-keepalive-time': (f, v) => (f.keepaliveTimeMs = flagValues.positiveDuration('storage-keepalive-time', v)),
  'storage-keepalive-timeout': (f, v) => (f.keepaliveTimeoutMs = flagValues.positiveDuration('storage-keepalive-timeout', v)),
};

function positiveInt(name: string, value: string): number {
  const n = flagValues.int(name, value);
  if (n === 0) throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must be positive`);
  return n;
}
