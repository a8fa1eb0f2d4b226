// kubeconfigCredentials reads the current context of a kubeconfig file (inline data, or file
// paths, or a token), as the controllers app connects to a gateway.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { ClientCredentials } from '@plinth/client';
import { ControllerCredentials } from './controllers.host';

interface Kubeconfig {
  'current-context'?: string;
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  clusters?: { name: string; cluster: { server: string; 'certificate-authority-data'?: string; 'certificate-authority'?: string } }[];
  users?: { name: string; user: { 'client-certificate-data'?: string; 'client-key-data'?: string; 'client-certificate'?: string; 'client-key'?: string; token?: string } }[];
}

export function kubeconfigCredentials(path: string): ControllerCredentials {
  return async () => readKubeconfig(path);
}

export function readKubeconfig(path: string): ClientCredentials {
  const config = parse(readFileSync(path, 'utf8')) as Kubeconfig;
  const context = config.contexts?.find((c) => c.name === config['current-context'])?.context;
  if (!context) throw new Error(`kubeconfig ${path}: no current context`);
  const cluster = config.clusters?.find((c) => c.name === context.cluster)?.cluster;
  const user = config.users?.find((u) => u.name === context.user)?.user ?? {};
  if (!cluster) throw new Error(`kubeconfig ${path}: no cluster ${context.cluster}`);
  const base = dirname(resolve(path));
  const data = (inline: string | undefined, file: string | undefined) =>
    inline ? Buffer.from(inline, 'base64').toString('utf8') : file ? readFileSync(resolve(base, file), 'utf8') : undefined;
  return {
    server: cluster.server,
    caPem: data(cluster['certificate-authority-data'], cluster['certificate-authority']) ?? '',
    certPem: data(user['client-certificate-data'], user['client-certificate']),
    keyPem: data(user['client-key-data'], user['client-key']),
    token: user.token,
  };
}
