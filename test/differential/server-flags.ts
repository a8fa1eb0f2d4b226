// server-flags.ts turns an area's server settings into command-line flags: kube-apiserver's,
// for the real server its recording is made against, and Plinth's, for the server the suite
// replays it against. Both take --runtime-config and --feature-gates by those names; Plinth's
// runtime-config names its groups `*.platform.io`.
import { defaultServerFlags, parseServerFlags, ServerFlags } from '@plinth/apiserver';
import { renameAll } from './rename';
import { ServerSettings } from './scenario';

function entries(values: Record<string, boolean> | undefined, name: (key: string) => string = (key) => key): string {
  return Object.entries(values ?? {})
    .map(([key, on]) => `${name(key)}=${on}`)
    .join(',');
}

// sharedFlags are the flags both servers are given, groups named by `name`.
function sharedFlags(server: ServerSettings, name: (key: string) => string): string[] {
  const runtimeConfig = entries(server.runtimeConfig, name);
  const featureGates = entries(server.featureGates);
  return [...(runtimeConfig ? [`--runtime-config=${runtimeConfig}`] : []), ...(featureGates ? [`--feature-gates=${featureGates}`] : [])];
}

// kubeApiserverFlags are the flags to start the real kube-apiserver with for an area.
export function kubeApiserverFlags(server: ServerSettings = {}): string[] {
  return [...sharedFlags(server, (key) => key), ...(server.kubeApiserverOnly ?? [])];
}

// plinthCommandLine is the same settings as Plinth's command-line flags (npm start -- ...).
export function plinthCommandLine(server: ServerSettings = {}): string[] {
  return sharedFlags(server, renameAll);
}

// plinthFlags are the server flags Plinth's command line sets, parsed by Plinth's own flag
// parser: those that differ from the defaults, for a test server.
export function plinthFlags(server: ServerSettings = {}): Partial<ServerFlags> {
  const parsed = parseServerFlags(plinthCommandLine(server));
  return Object.fromEntries(Object.entries(parsed).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(defaultServerFlags[key as keyof ServerFlags])));
}
