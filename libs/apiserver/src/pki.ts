// The all-in-one's PKI: a cluster CA, a serving certificate for the API server, an admin
// client certificate (group system:masters) and the controller manager's client certificate
// (user system:kube-controller-manager, as kubeadm's controller-manager.conf), created on first
// start under <dataDir>/pki and reused after; the service-account signing key, made there only
// when no --service-account-signing-key-file names one; and the admin kubeconfig that points
// kubectl at the server.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueCertificate, KeyPairPem, newCertificateAuthority, newPrivateKeyPem } from '@plinth/pki';

export { KeyPairPem };

export interface ClusterPki {
  ca: KeyPairPem;
  server: KeyPairPem;
  admin: KeyPairPem;
  controllerManager: KeyPairPem;
  // files are the paths of the CA certificate.
  files: { ca: string };
}

function readPair(dir: string, name: string): KeyPairPem | null {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  if (!existsSync(certPath) || !existsSync(keyPath)) return null;
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
}

function writePair(dir: string, name: string, pair: KeyPairPem): void {
  writeFileSync(join(dir, `${name}.crt`), pair.cert);
  writeFileSync(join(dir, `${name}.key`), pair.key, { mode: 0o600 });
}

// ensureClusterPki loads the PKI under dataDir/pki, creating what is missing.
export function ensureClusterPki(dataDir: string, serverNames: { dns: string[]; ips: string[] }): ClusterPki {
  const dir = join(dataDir, 'pki');
  mkdirSync(dir, { recursive: true });
  const ensure = (name: string, make: () => KeyPairPem): KeyPairPem => {
    const existing = readPair(dir, name);
    if (existing) return existing;
    const made = make();
    writePair(dir, name, made);
    return made;
  };
  const ca = ensure('ca', () => newCertificateAuthority('plinth-ca'));
  const server = ensure('apiserver', () => issueCertificate(ca, { commonName: 'plinth-apiserver', usage: 'server', ...serverNames }));
  const admin = ensure('admin', () => issueCertificate(ca, { commonName: 'plinth-admin', organizations: ['system:masters'], usage: 'client' }));
  const controllerManager = ensure('controller-manager', () => issueCertificate(ca, { commonName: 'system:kube-controller-manager', usage: 'client' }));
  return { ca, server, admin, controllerManager, files: { ca: join(dir, 'ca.crt') } };
}

// ensureServiceAccountKey is the path of dataDir/pki/sa.key, an RSA key made on first use
// (RS256, as the OIDC discovery document and its JWKS publish) and reused after.
export async function ensureServiceAccountKey(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'pki');
  const path = join(dir, 'sa.key');
  if (existsSync(path)) return path;
  const pem = await newPrivateKeyPem();
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, pem, { mode: 0o600 });
  return path;
}

export function adminKubeconfig(server: string, clusterPki: ClusterPki): string {
  return clientKubeconfig(server, clusterPki.ca.cert, clusterPki.admin, 'plinth-admin');
}

// controllerManagerKubeconfig authenticates as system:kube-controller-manager, whose bootstrap
// role lets it elect a leader and issue its controllers' service-account tokens.
export function controllerManagerKubeconfig(server: string, clusterPki: ClusterPki): string {
  return clientKubeconfig(server, clusterPki.ca.cert, clusterPki.controllerManager, 'system:kube-controller-manager');
}

function clientKubeconfig(server: string, caCert: string, client: KeyPairPem, user: string): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: plinth',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(caCert)}`,
    'users:',
    `- name: ${user}`,
    '  user:',
    `    client-certificate-data: ${b64(client.cert)}`,
    `    client-key-data: ${b64(client.key)}`,
    'contexts:',
    '- name: plinth',
    '  context:',
    '    cluster: plinth',
    `    user: ${user}`,
    '    namespace: default',
    'current-context: plinth',
    '',
  ].join('\n');
}
