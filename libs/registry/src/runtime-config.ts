// RuntimeConfig is the --runtime-config server flag: which groups, versions and resources are
// served. Keys are api/all, api/ga, api/beta, api/alpha, <group>/<version> (the core group is
// spelled v1 or api/v1) and <group>/<version>/<resource>; a key without a value means true.
// GA versions are on unless disabled; alpha ones, and the beta ones Plinth serves (all introduced
// after 1.22: Document 1, Versioning), are off unless enabled.
import { ResourceDefinition } from './resource';

export class RuntimeConfigError extends Error {}

export interface RuntimeConfig {
  readonly entries: ReadonlyMap<string, boolean>;
}

export function parseRuntimeConfig(flag: string | undefined): RuntimeConfig {
  const entries = new Map<string, boolean>();
  for (const item of (flag ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [rawKey, rawValue] = item.split('=');
    let value = true;
    if (rawValue !== undefined) {
      if (rawValue !== 'true' && rawValue !== 'false') throw new RuntimeConfigError(`invalid value of ${rawKey}: ${rawValue}, err: strconv.ParseBool: parsing "${rawValue}": invalid syntax`);
      value = rawValue === 'true';
    }
    const key = rawKey === 'api/v1' ? 'v1' : rawKey.replace(/^\/+|\/+$/g, '');
    entries.set(key, value);
  }
  return { entries };
}

function levelKey(def: ResourceDefinition): string {
  switch (def.stability ?? versionStability(def.version)) {
    case 'alpha':
      return 'api/alpha';
    case 'beta':
      return 'api/beta';
    default:
      return 'api/ga';
  }
}

function versionStability(version: string): 'alpha' | 'beta' | 'stable' {
  if (/alpha/.test(version)) return 'alpha';
  if (/beta/.test(version)) return 'beta';
  return 'stable';
}

function groupVersionKey(def: ResourceDefinition): string {
  return def.group === '' ? def.version : `${def.group}/${def.version}`;
}

// isServed decides one definition, the most specific key winning.
export function isServed(def: ResourceDefinition, config: RuntimeConfig): boolean {
  const gv = groupVersionKey(def);
  const keys = [`${gv}/${def.resource}`, gv, levelKey(def), 'api/all'];
  for (const key of keys) {
    const value = config.entries.get(key);
    if (value !== undefined) return value;
  }
  return levelKey(def) === 'api/ga';
}
