// FlagSet reads a process's command line as pflag does for Kubernetes' components: --name=value
// and --name value, a boolean flag standing alone; an unknown flag or a stray argument is an
// error. One command line may fill several flag sets (the all-in-one reads the API server's and
// the controller manager's): a flag goes to every set that declares it.
import { parseDuration } from './duration';

export class FlagError extends Error {}

export type FlagSetter<T> = (flags: T, value: string) => void;

// FlagSet binds a flag table to the settings object it fills.
export interface FlagSet {
  has(name: string): boolean;
  isBoolean(name: string): boolean;
  set(name: string, value: string): void;
}

export function flagSet<T>(flags: T, setters: Record<string, FlagSetter<T>>, booleans: readonly string[] = []): FlagSet {
  return {
    has: (name) => Object.hasOwn(setters, name),
    isBoolean: (name) => booleans.includes(name),
    set: (name, value) => setters[name](flags, value),
  };
}

// parseFlags applies the command line to the flag sets.
export function parseFlags(argv: readonly string[], ...sets: FlagSet[]): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    const targets = sets.filter((s) => s.has(name));
    if (targets.length === 0) throw new FlagError(`unknown flag: --${name}`);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (targets.some((s) => s.isBoolean(name))) value = '';
    else {
      if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
      value = argv[++i];
    }
    for (const target of targets) target.set(name, value);
  }
}

// flagValues convert a flag's text, with pflag's messages.
export const flagValues = {
  int(name: string, value: string): number {
    if (!/^\d+$/.test(value)) throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must be a non-negative integer`);
    return Number(value);
  },
  duration(name: string, value: string): number {
    try {
      return parseDuration(value);
    } catch (err) {
      throw new FlagError(`invalid argument "${value}" for "--${name}" flag: ${(err as Error).message}`);
    }
  },
  positiveDuration(name: string, value: string): number {
    const ms = flagValues.duration(name, value);
    if (ms <= 0) throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must be positive`);
    return ms;
  },
  nonNegativeDuration(name: string, value: string): number {
    const ms = flagValues.duration(name, value);
    if (ms < 0) throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must not be negative`);
    return ms;
  },
  bool(name: string, value: string): boolean {
    if (value === '' || value === 'true') return true;
    if (value === 'false') return false;
    throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must be true or false`);
  },
  list(value: string): string[] {
    return value.split(',').map((v) => v.trim()).filter(Boolean);
  },
};

// ignoring declares a set's flags without applying them (for a first pass that reads only
// another set, such as a --config file's name before the flags that override the file).
export function ignoring(set: FlagSet): FlagSet {
  return { has: (name) => set.has(name), isBoolean: (name) => set.isBoolean(name), set: () => undefined };
}
