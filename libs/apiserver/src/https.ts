// listenHttps serves an ApiServer over TLS, asking for (but not requiring) client
// certificates, which authentication reads.
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { ApiServer } from './server';
import { ClusterPki } from './pki';
import { httpServerOptions, serveHttpAsGo } from './http/framing';

export async function listenHttps(server: ApiServer, clusterPki: ClusterPki, host: string, port: number): Promise<{ server: Server; port: number }> {
  const https = createServer(
    { ...httpServerOptions, cert: clusterPki.server.cert, key: clusterPki.server.key, ca: clusterPki.ca.cert, requestCert: true, rejectUnauthorized: false },
    server.handle,
  );
  serveHttpAsGo(https, server.handle);
  https.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    https.once('error', reject);
    https.listen(port, host, () => resolve());
  });
  return { server: https, port: (https.address() as AddressInfo).port };
}
