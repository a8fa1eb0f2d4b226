// The authz service's configuration: flags, falling back to the environment, then defaults.
//   --storage-address  PLINTH_STORAGE_ADDRESS  the storage service's host:port (127.0.0.1:7443)
//   --nats-url         PLINTH_NATS_URL         the NATS server(s), comma-separated (nats://127.0.0.1:4222)
export interface AuthzConfig {
  storageAddress: string;
  natsUrl: string;
}

export const defaultAuthzConfig: AuthzConfig = { storageAddress: '127.0.0.1:7443', natsUrl: 'nats://127.0.0.1:4222' };

export class FlagError extends Error {}

const flags: Record<string, keyof AuthzConfig> = { 'storage-address': 'storageAddress', 'nats-url': 'natsUrl' };

// parseAuthzConfig reads --name=value and --name value forms; unknown flags are an error.
export function parseAuthzConfig(argv: string[], env: NodeJS.ProcessEnv): AuthzConfig {
  const config: AuthzConfig = {
    storageAddress: env.PLINTH_STORAGE_ADDRESS || defaultAuthzConfig.storageAddress,
    natsUrl: env.PLINTH_NATS_URL || defaultAuthzConfig.natsUrl,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    const field = flags[name];
    if (!field) throw new FlagError(`unknown flag: --${name}`);
    if (eq < 0 && i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === '') throw new FlagError(`flag --${name} needs a non-empty value`);
    config[field] = value;
  }
  return config;
}
