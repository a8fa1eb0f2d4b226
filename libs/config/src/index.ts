export * from './types';
export { parseDuration, parseDurationNanos, formatDuration, canonicalDuration, DurationError } from './duration';
export { UnknownFieldError } from './decode';
export {
  ConfigurationError,
  loadControllerManagerConfiguration,
  loadCloudControllerManagerConfiguration,
  loadLeaderMigrationConfiguration,
} from './load';
export {
  supportedResourceLocks,
  validateLeaderElection,
  validateLeaderMigration,
  validateEnableList,
  validateGeneric,
  validatePlatformControllerManagerConfiguration,
  validateCloudControllerManagerConfiguration,
} from './validation';
export { controllerWorkers } from './workers';
export type { ValidationOptions } from './validation';
export { listValue, ProcessFlag, ProcessFlagError, readProcessFlags } from './process-flags';
export { controllerEnabled, LeaderElectionSettings } from './controller-manager-settings';
export { FlagError, FlagSet, flagSet, FlagSetter, flagValues, ignoring, parseFlags } from './flag-set';
export { ControllerManagerFlags, controllerManagerFlagSet, defaultControllerManagerFlags } from './controller-manager-flags';
export { defaultStorageLinkFlags, StorageLinkFlags, storageLinkFlagSetters } from './storage-link-flags';
export { defaultFeatureGates, FeatureGateError, parseFeatureGates } from './feature-gates';
