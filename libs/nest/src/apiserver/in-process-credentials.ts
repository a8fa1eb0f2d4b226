// inProcessCredentials lets the all-in-one's controllers reach its own API server with the
// generated controller-manager client certificate (user system:kube-controller-manager, whose
// bootstrap role lets it elect a leader and obtain the controllers' service-account tokens),
// once the server listens.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientCredentials } from '@plinth/client';
import { ApiServerHost } from './api-server.host';

export function inProcessCredentials(host: ApiServerHost): () => Promise<ClientCredentials> {
  return async () => {
    await host.listening;
    const pki = (name: string) => readFileSync(join(host.dataDirectory, 'pki', name), 'utf8');
    return { server: `https://127.0.0.1:${host.port}`, caPem: pki('ca.crt'), certPem: pki('controller-manager.crt'), keyPem: pki('controller-manager.key') };
  };
}
