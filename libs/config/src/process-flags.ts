// readProcessFlags reads a service's settings from its command line, falling back to its
// environment (the form a Helm chart sets): each setting has a flag, an environment variable,
// or both. Flags take --name=value and --name value; a boolean flag may stand alone.
export class ProcessFlagError extends Error {}

export interface ProcessFlag {
  flag?: string;
  env?: string;
  // boolean flags take no value (--name means true) and accept true/false.
  boolean?: boolean;
}

// readProcessFlags returns the raw value of every setting given, by key, flags over
// environment. Unknown flags, missing values and empty values are errors.
export function readProcessFlags<K extends string>(table: Record<K, ProcessFlag>, argv: string[], env: NodeJS.ProcessEnv): Partial<Record<K, string>> {
  const values: Partial<Record<K, string>> = {};
  const keys = Object.keys(table) as K[];
  for (const key of keys) {
    const name = table[key].env;
    const value = name ? env[name] : undefined;
    if (value !== undefined && value !== '') values[key] = table[key].boolean ? bool(name ?? key, value) : value;
  }
  const byFlag = new Map(keys.filter((key) => table[key].flag).map((key) => [table[key].flag, key]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new ProcessFlagError(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    const key = byFlag.get(name);
    if (key === undefined) throw new ProcessFlagError(`unknown flag: --${name}`);
    if (table[key].boolean) {
      values[key] = bool(`--${name}`, eq >= 0 ? arg.slice(eq + 1) : 'true');
      continue;
    }
    if (eq < 0 && i + 1 >= argv.length) throw new ProcessFlagError(`flag needs an argument: --${name}`);
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === '') throw new ProcessFlagError(`flag --${name} needs a non-empty value`);
    values[key] = value;
  }
  return values;
}

function bool(name: string, value: string): string {
  if (value === 'true' || value === 'false') return value;
  throw new ProcessFlagError(`invalid value "${value}" for ${name}: must be true or false`);
}

// listValue splits a comma-separated setting, ignoring blanks around and between items.
export function listValue(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
