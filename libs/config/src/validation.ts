// Validation of defaulted configuration, with the messages of Kubernetes' component-base
// (ValidateLeaderElectionConfiguration), client-go's leader elector, controller-manager's leader
// migration validation, and the controller managers' option checks.
import { field, FieldError, FieldPath, newPath } from '@plinth/machinery';
import { parseDurationNanos } from './duration';
import {
  CloudControllerManagerConfiguration,
  GenericControllerManagerConfiguration,
  LeaderElectionConfiguration,
  LeaderMigrationConfiguration,
  PlatformControllerManagerConfiguration,
} from './types';

export const supportedResourceLocks = ['leases', 'endpoints'] as const;

// jitterFactor is client-go leaderelection.JitterFactor: renewDeadline must exceed retryPeriod times it.
const jitterFactor = 1.2;

export interface ValidationOptions {
  // knownControllers, when given, are the names a Controllers entry may use.
  knownControllers?: readonly string[];
}

export function validateLeaderElection(le: LeaderElectionConfiguration, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!le.leaderElect) return errs;
  const lease = parseDurationNanos(le.leaseDuration);
  const renew = parseDurationNanos(le.renewDeadline);
  const retry = parseDurationNanos(le.retryPeriod);
  if (lease <= 0n) errs.push(field.invalid(path.child('leaseDuration'), le.leaseDuration, 'must be greater than zero'));
  if (renew <= 0n) errs.push(field.invalid(path.child('renewDeadline'), le.renewDeadline, 'must be greater than zero'));
  if (retry <= 0n) errs.push(field.invalid(path.child('retryPeriod'), le.retryPeriod, 'must be greater than zero'));
  if (lease <= renew) {
    errs.push(field.invalid(path.child('leaseDuration'), le.leaseDuration, 'LeaseDuration must be greater than RenewDeadline'));
  }
  if (Number(renew) <= jitterFactor * Number(retry)) {
    errs.push(
      field.invalid(path.child('renewDeadline'), le.renewDeadline, 'renewDeadline must be greater than retryPeriod*JitterFactor'),
    );
  }
  if (le.resourceLock === '') {
    errs.push(field.invalid(path.child('resourceLock'), le.resourceLock, 'resourceLock is required'));
  } else if (!(supportedResourceLocks as readonly string[]).includes(le.resourceLock)) {
    errs.push(field.notSupported(path.child('resourceLock'), le.resourceLock, supportedResourceLocks));
  }
  if (le.resourceName === '') errs.push(field.invalid(path.child('resourceName'), le.resourceName, 'resourceName is required'));
  if (le.resourceNamespace === '') {
    errs.push(field.invalid(path.child('resourceNamespace'), le.resourceNamespace, 'resourceNamespace is required'));
  }
  return errs;
}

// validateLeaderMigration checks a LeaderMigrationConfiguration; path is undefined for a document
// of its own, whose fields are then addressed from the root.
export function validateLeaderMigration(lm: LeaderMigrationConfiguration, path?: FieldPath): FieldError[] {
  const at = (name: string) => (path ? path.child(name) : newPath(name));
  const errs: FieldError[] = [];
  if (lm.leaderName === '') errs.push(field.required(at('leaderName')));
  if (!(supportedResourceLocks as readonly string[]).includes(lm.resourceLock)) {
    errs.push(field.notSupported(at('resourceLock'), lm.resourceLock, supportedResourceLocks));
  }
  lm.controllerLeaders.forEach((leader, i) => {
    const p = at('controllerLeaders').index(i);
    if (leader.component === '') errs.push(field.required(p.child('component')));
    if (leader.name === '') errs.push(field.required(p.child('name')));
  });
  return errs;
}

const controllerName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

// validateEnableList checks a Controllers or Webhooks list: `*`, `name` or `-name`.
export function validateEnableList(items: readonly string[], path: FieldPath, known?: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  items.forEach((item, i) => {
    if (item === '*') return;
    const name = item.startsWith('-') ? item.slice(1) : item;
    if (!controllerName.test(name)) {
      errs.push(field.invalid(path.index(i), item, `must be '*', a name, or a name prefixed with '-'`));
    } else if (known && !known.includes(name)) {
      errs.push(field.invalid(path.index(i), item, `${JSON.stringify(name)} is not in the list of known controllers`));
    }
  });
  return errs;
}

export function validateGeneric(g: GenericControllerManagerConfiguration, path: FieldPath, opts: ValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (g.Port < 0 || g.Port > 65535) errs.push(field.invalid(path.child('Port'), g.Port, 'must be between 0 and 65535, inclusive'));
  errs.push(...validateLeaderElection(g.LeaderElection, path.child('LeaderElection')));
  errs.push(...validateEnableList(g.Controllers, path.child('Controllers'), opts.knownControllers));
  if (g.LeaderMigrationEnabled) errs.push(...validateLeaderMigration(g.LeaderMigration, path.child('LeaderMigration')));
  return errs;
}

function positive(errs: FieldError[], path: FieldPath, value: number): void {
  if (value <= 0) errs.push(field.invalid(path, value, 'must be greater than 0'));
}

function between(errs: FieldError[], path: FieldPath, value: number, min: number, max: number): void {
  if (value < min) errs.push(field.invalid(path, value, `must not be less than ${min}`));
  else if (value > max) errs.push(field.invalid(path, value, `must not be more than ${max}`));
}

// concurrentSyncs lists each Concurrent*Syncs field of the platform controller manager.
const concurrentSyncs: ReadonlyArray<readonly [string, string]> = [
  ['DaemonSetController', 'ConcurrentDaemonSetSyncs'],
  ['DeploymentController', 'ConcurrentDeploymentSyncs'],
  ['StatefulSetController', 'ConcurrentStatefulSetSyncs'],
  ['EndpointController', 'ConcurrentEndpointSyncs'],
  ['EphemeralVolumeController', 'ConcurrentEphemeralVolumeSyncs'],
  ['GarbageCollectorController', 'ConcurrentGCSyncs'],
  ['HPAController', 'ConcurrentHorizontalPodAutoscalerSyncs'],
  ['JobController', 'ConcurrentJobSyncs'],
  ['CronJobController', 'ConcurrentCronJobSyncs'],
  ['NamespaceController', 'ConcurrentNamespaceSyncs'],
  ['ReplicaSetController', 'ConcurrentRSSyncs'],
  ['ReplicationController', 'ConcurrentRCSyncs'],
  ['ResourceQuotaController', 'ConcurrentResourceQuotaSyncs'],
  ['SAController', 'ConcurrentSATokenSyncs'],
  ['ServiceController', 'ConcurrentServiceSyncs'],
  ['TTLAfterFinishedController', 'ConcurrentTTLSyncs'],
];

export function validatePlatformControllerManagerConfiguration(
  c: PlatformControllerManagerConfiguration,
  opts: ValidationOptions = {},
): FieldError[] {
  const errs = validateGeneric(c.Generic, newPath('Generic'), opts);
  const members = c as unknown as Record<string, Record<string, number>>;
  for (const [member, name] of concurrentSyncs) positive(errs, newPath(member, name), members[member][name]);
  // EndpointSlice bounds are those of the endpoint-slice controllers' options.
  const es = c.EndpointSliceController;
  between(errs, newPath('EndpointSliceController', 'ConcurrentServiceEndpointSyncs'), es.ConcurrentServiceEndpointSyncs, 1, 50);
  between(errs, newPath('EndpointSliceController', 'MaxEndpointsPerSlice'), es.MaxEndpointsPerSlice, 1, 1000);
  const esm = c.EndpointSliceMirroringController;
  const mirroring = newPath('EndpointSliceMirroringController');
  between(errs, mirroring.child('MirroringConcurrentServiceEndpointSyncs'), esm.MirroringConcurrentServiceEndpointSyncs, 1, 50);
  between(errs, mirroring.child('MirroringMaxEndpointsPerSubset'), esm.MirroringMaxEndpointsPerSubset, 1, 1000);
  return errs;
}

export function validateCloudControllerManagerConfiguration(
  c: CloudControllerManagerConfiguration,
  opts: ValidationOptions = {},
): FieldError[] {
  const errs = validateGeneric(c.Generic, newPath('Generic'), opts);
  positive(errs, newPath('NodeController', 'ConcurrentNodeSyncs'), c.NodeController.ConcurrentNodeSyncs);
  positive(errs, newPath('ServiceController', 'ConcurrentServiceSyncs'), c.ServiceController.ConcurrentServiceSyncs);
  errs.push(...validateEnableList(c.Webhook.Webhooks, newPath('Webhook', 'Webhooks')));
  return errs;
}
