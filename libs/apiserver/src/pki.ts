// The all-in-one's PKI: a cluster CA, a serving certificate for the API server, an admin
// client certificate (group system:masters) and the controller manager's client certificate
// (user system:kube-controller-manager, as kubeadm's controller-manager.conf), created on first
// start under <dataDir>/pki and reused after; and the admin kubeconfig that points kubectl at
// the server.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pki, md } from 'node-forge';

export interface KeyPairPem {
  cert: string;
  key: string;
}

export interface ClusterPki {
  ca: KeyPairPem;
  server: KeyPairPem;
  admin: KeyPairPem;
  controllerManager: KeyPairPem;
  // files are the paths of the CA certificate and the service-account signing key.
  files: { ca: string; serviceAccountKey: string };
}

const tenYearsMs = 10 * 365 * 24 * 3600 * 1000;

function newKey(): { privatePem: string; forgeKey: pki.rsa.PrivateKey; forgePublic: pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = pki.privateKeyFromPem(privatePem);
  const forgePublic = pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  return { privatePem, forgeKey, forgePublic };
}

function serial(): string {
  return Date.now().toString(16) + Math.floor(Math.random() * 0xffff).toString(16).padStart(4, '0');
}

interface CertSpec {
  commonName: string;
  organizations?: string[];
  isCA?: boolean;
  serverNames?: { dns: string[]; ips: string[] };
  client?: boolean;
}

function issue(spec: CertSpec, issuer: { cert: pki.Certificate; key: pki.rsa.PrivateKey } | null): { pem: KeyPairPem; cert: pki.Certificate; key: pki.rsa.PrivateKey } {
  const key = newKey();
  const cert = pki.createCertificate();
  cert.publicKey = key.forgePublic;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + tenYearsMs);
  const subject = [{ name: 'commonName', value: spec.commonName }, ...(spec.organizations ?? []).map((o) => ({ name: 'organizationName', value: o }))];
  cert.setSubject(subject);
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : subject);
  const extensions: Record<string, unknown>[] = [];
  if (spec.isCA) {
    extensions.push({ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true, critical: true });
  } else {
    extensions.push({ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true });
    extensions.push({ name: 'extKeyUsage', serverAuth: !spec.client, clientAuth: Boolean(spec.client) });
  }
  if (spec.serverNames) {
    extensions.push({
      name: 'subjectAltName',
      altNames: [...spec.serverNames.dns.map((value) => ({ type: 2, value })), ...spec.serverNames.ips.map((ip) => ({ type: 7, ip }))],
    });
  }
  cert.setExtensions(extensions);
  cert.sign(issuer ? issuer.key : key.forgeKey, md.sha256.create());
  return { pem: { cert: pki.certificateToPem(cert), key: key.privatePem }, cert, key: key.forgeKey };
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
  let ca = readPair(dir, 'ca');
  let caIssuer: { cert: pki.Certificate; key: pki.rsa.PrivateKey };
  if (!ca) {
    const issued = issue({ commonName: 'plinth-ca', isCA: true }, null);
    ca = issued.pem;
    writePair(dir, 'ca', ca);
    caIssuer = { cert: issued.cert, key: issued.key };
  } else {
    caIssuer = { cert: pki.certificateFromPem(ca.cert), key: pki.privateKeyFromPem(ca.key) };
  }
  let server = readPair(dir, 'apiserver');
  if (!server) {
    server = issue({ commonName: 'plinth-apiserver', serverNames }, caIssuer).pem;
    writePair(dir, 'apiserver', server);
  }
  let admin = readPair(dir, 'admin');
  if (!admin) {
    admin = issue({ commonName: 'plinth-admin', organizations: ['system:masters'], client: true }, caIssuer).pem;
    writePair(dir, 'admin', admin);
  }
  let controllerManager = readPair(dir, 'controller-manager');
  if (!controllerManager) {
    controllerManager = issue({ commonName: 'system:kube-controller-manager', client: true }, caIssuer).pem;
    writePair(dir, 'controller-manager', controllerManager);
  }
  const serviceAccountKey = join(dir, 'sa.key');
  if (!existsSync(serviceAccountKey)) {
    writeFileSync(serviceAccountKey, newKey().privatePem, { mode: 0o600 });
  }
  return { ca, server, admin, controllerManager, files: { ca: join(dir, 'ca.crt'), serviceAccountKey } };
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
