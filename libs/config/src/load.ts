// Loading a configuration document: parse the YAML text, check apiVersion and kind, decode
// strictly against the schema, default, validate. Callers read the file; this only sees text.
import { field, FieldError, newPath } from '@plinth/machinery';
import { parseDocument } from 'yaml';
import { decode } from './decode';
import { applyDefaults } from './defaults';
import { cloudControllerManagerSchema, leaderMigrationSchema, platformControllerManagerSchema, StructSchema } from './schema';
import {
  CloudControllerManagerAPIVersion,
  CloudControllerManagerConfiguration,
  ControllerManagerAPIVersion,
  LeaderMigrationConfiguration,
  PlatformControllerManagerAPIVersion,
  PlatformControllerManagerConfiguration,
} from './types';
import {
  validateCloudControllerManagerConfiguration,
  validateLeaderMigration,
  validatePlatformControllerManagerConfiguration,
  ValidationOptions,
} from './validation';

// ConfigurationError is a document that could not be loaded; errors lists its field errors (none
// for a document that is not YAML).
export class ConfigurationError extends Error {
  constructor(
    message: string,
    readonly errors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

interface DocumentKind<T> {
  apiVersion: string;
  kind: string;
  schema: StructSchema;
  validate(obj: T): FieldError[];
}

function load<T>(yamlText: string, k: DocumentKind<T>): T {
  const doc = parseDocument(yamlText, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigurationError(`${k.kind}: invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
  }
  const raw: unknown = doc.toJS() ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigurationError(`${k.kind}: the document must be a mapping`, [field.invalid('', raw, 'must be an object')]);
  }
  const { apiVersion, kind } = raw as Record<string, unknown>;
  const typeErrs: FieldError[] = [];
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') typeErrs.push(field.required(newPath('apiVersion')));
  else if (apiVersion !== k.apiVersion) typeErrs.push(field.notSupported(newPath('apiVersion'), apiVersion, [k.apiVersion]));
  if (kind === undefined || kind === null || kind === '') typeErrs.push(field.required(newPath('kind')));
  else if (kind !== k.kind) typeErrs.push(field.notSupported(newPath('kind'), kind, [k.kind]));
  if (typeErrs.length > 0) throw new ConfigurationError(field.toAggregate(typeErrs) ?? '', typeErrs);

  const decodeErrs: FieldError[] = [];
  const decoded = decode(raw, k.schema, undefined, decodeErrs);
  if (decodeErrs.length > 0) {
    throw new ConfigurationError(`strict decoding error: ${decodeErrs.map(String).join(', ')}`, decodeErrs);
  }
  const obj = applyDefaults(decoded, k.schema) as T;
  const errs = k.validate(obj);
  if (errs.length > 0) throw new ConfigurationError(field.toAggregate(errs) ?? '', errs);
  return obj;
}

// loadControllerManagerConfiguration reads a PlatformControllerManagerConfiguration document.
export function loadControllerManagerConfiguration(
  yamlText: string,
  opts: ValidationOptions = {},
): PlatformControllerManagerConfiguration {
  return load(yamlText, {
    apiVersion: PlatformControllerManagerAPIVersion,
    kind: 'PlatformControllerManagerConfiguration',
    schema: platformControllerManagerSchema,
    validate: (c: PlatformControllerManagerConfiguration) => validatePlatformControllerManagerConfiguration(c, opts),
  });
}

export function loadCloudControllerManagerConfiguration(
  yamlText: string,
  opts: ValidationOptions = {},
): CloudControllerManagerConfiguration {
  return load(yamlText, {
    apiVersion: CloudControllerManagerAPIVersion,
    kind: 'CloudControllerManagerConfiguration',
    schema: cloudControllerManagerSchema,
    validate: (c: CloudControllerManagerConfiguration) => validateCloudControllerManagerConfiguration(c, opts),
  });
}

// loadLeaderMigrationConfiguration reads the document named by --leader-migration-config.
export function loadLeaderMigrationConfiguration(yamlText: string): LeaderMigrationConfiguration {
  return load(yamlText, {
    apiVersion: ControllerManagerAPIVersion,
    kind: 'LeaderMigrationConfiguration',
    schema: leaderMigrationSchema,
    validate: (c: LeaderMigrationConfiguration) => validateLeaderMigration(c),
  });
}
