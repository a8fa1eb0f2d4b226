// helm-pki-values writes the values file with the PKI helm/plinth needs, for a release in a
// namespace: a cluster CA, the API serving certificate for the gateway Service's names, the
// admin client certificate, the service-account signing key, and the controller manager's
// kubeconfig (as system:kube-controller-manager, not admin) pointing at the gateway Service.
// Every gateway replica mounts the same PKI. Then the links behind the gateway: an internal CA
// (whose key is not kept: nothing in the cluster issues certificates) signing the storage
// service's serving certificate, the gateway's and authz's client certificates for it
// (CN=plinth-gateway, CN=plinth-authz) and NATS's certificate (serving, and its routes); the NATS passwords of
// the gateway and authz users; and an etcd CA signing the etcd members' certificate (serving
// and peer, for every member of the StatefulSet) and the storage service's etcd client
// certificate.
//
//   node -r ./tools/register.js tools/helm-pki-values.ts --release plinth --namespace plinth > pki.yaml
//
// With --out-dir DIR it writes each value to DIR as a file named by its key in the chart's
// Secret (internal-ca.crt, storage.crt, ...), and a nats.conf (TLS with nats.crt, the two users
// with their permissions), for running the processes by hand on loopback.
//
// Keep pki.yaml secret; reuse it on upgrades (a new CA invalidates every issued credential).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { randomBytes } from 'node:crypto';
import { controllerManagerKubeconfig, ensureClusterPki, ensureServiceAccountKey } from '@plinth/apiserver';
import { natsPermissions, natsServerAuthorization } from '@plinth/authz-nats';
import { issueCertificate, newCertificateAuthority } from '@plinth/pki';

export interface PkiValuesOptions {
  release: string;
  namespace: string;
  // servicePort is the gateway Service's port (gateway.service.port).
  servicePort: number;
  // extraNames are more DNS names for the serving certificate (an external load balancer).
  extraNames: string[];
}

export async function pkiValues(options: PkiValuesOptions): Promise<{ pki: Record<string, string> }> {
  const service = `${options.release}-gateway`;
  const dns = ['localhost', service, `${service}.${options.namespace}`, `${service}.${options.namespace}.svc`, `${service}.${options.namespace}.svc.cluster.local`, ...options.extraNames];
  const dir = mkdtempSync(join(tmpdir(), 'plinth-pki-'));
  try {
    const pki = ensureClusterPki(dir, { dns, ips: ['127.0.0.1'] });
    const port = options.servicePort === 443 ? '' : `:${options.servicePort}`;
    const values: Record<string, string> = {
      caCrt: pki.ca.cert,
      caKey: pki.ca.key,
      apiserverCrt: pki.server.cert,
      apiserverKey: pki.server.key,
      adminCrt: pki.admin.cert,
      adminKey: pki.admin.key,
      serviceAccountKey: readFileSync(await ensureServiceAccountKey(dir), 'utf8'),
      controllersKubeconfig: controllerManagerKubeconfig(`https://${service}.${options.namespace}.svc${port}`, pki),
      ...linkValues(options),
    };
    return { pki: values };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// serviceNames are the names a Service is reached by inside the cluster.
function serviceNames(service: string, namespace: string): string[] {
  return [service, `${service}.${namespace}`, `${service}.${namespace}.svc`, `${service}.${namespace}.svc.cluster.local`];
}

// linkValues are the certificates and passwords of the links behind the gateway.
function linkValues(options: PkiValuesOptions): Record<string, string> {
  const { release, namespace } = options;
  const internalCa = newCertificateAuthority(`${release}-internal-ca`);
  const etcdCa = newCertificateAuthority(`${release}-etcd-ca`);
  const loopback = { ips: ['127.0.0.1'] };
  const storage = issueCertificate(internalCa, { commonName: 'plinth-storage', usage: 'server', dns: [...serviceNames(`${release}-storage`, namespace), 'localhost'], ...loopback });
  const gateway = issueCertificate(internalCa, { commonName: 'plinth-gateway', usage: 'client' });
  const authz = issueCertificate(internalCa, { commonName: 'plinth-authz', usage: 'client' });
  // NATS members route to each other as <release>-nats-N.<release>-nats-peers, over TLS with
  // this certificate at both ends.
  const natsPeers = `${release}-nats-peers`;
  const natsNames = [...serviceNames(`${release}-nats`, namespace), ...[natsPeers, ...serviceNames(natsPeers, namespace)].map((name) => `*.${name}`), 'localhost'];
  const nats = issueCertificate(internalCa, { commonName: 'plinth-nats', usage: 'peer', dns: natsNames, ...loopback });
  // The etcd members are <release>-etcd-N.<release>-etcd-peers: a wildcard covers any replica count.
  const peers = `${release}-etcd-peers`;
  const etcdNames = [...serviceNames(`${release}-etcd`, namespace), ...serviceNames(peers, namespace).map((name) => `*.${name}`), 'localhost'];
  const etcd = issueCertificate(etcdCa, { commonName: 'plinth-etcd', usage: 'peer', dns: etcdNames, ...loopback });
  const etcdClient = issueCertificate(etcdCa, { commonName: 'plinth-storage', usage: 'client' });
  const password = () => randomBytes(24).toString('base64url');
  return {
    internalCaCrt: internalCa.cert,
    storageCrt: storage.cert,
    storageKey: storage.key,
    gatewayStorageCrt: gateway.cert,
    gatewayStorageKey: gateway.key,
    authzStorageCrt: authz.cert,
    authzStorageKey: authz.key,
    natsCrt: nats.cert,
    natsKey: nats.key,
    natsGatewayPassword: password(),
    natsAuthzPassword: password(),
    etcdCaCrt: etcdCa.cert,
    etcdCrt: etcd.cert,
    etcdKey: etcd.key,
    etcdClientCrt: etcdClient.cert,
    etcdClientKey: etcdClient.key,
  };
}

// secretKeys are the keys of the chart's PKI Secret (helm/plinth/templates/secrets.yaml) for
// the values.
export const secretKeys: Record<string, string> = {
  caCrt: 'ca.crt',
  caKey: 'ca.key',
  apiserverCrt: 'apiserver.crt',
  apiserverKey: 'apiserver.key',
  adminCrt: 'admin.crt',
  adminKey: 'admin.key',
  serviceAccountKey: 'sa.key',
  controllersKubeconfig: 'controllers.kubeconfig',
  internalCaCrt: 'internal-ca.crt',
  storageCrt: 'storage.crt',
  storageKey: 'storage.key',
  gatewayStorageCrt: 'gateway-storage.crt',
  gatewayStorageKey: 'gateway-storage.key',
  authzStorageCrt: 'authz-storage.crt',
  authzStorageKey: 'authz-storage.key',
  natsCrt: 'nats.crt',
  natsKey: 'nats.key',
  natsGatewayPassword: 'nats-gateway.password',
  natsAuthzPassword: 'nats-authz.password',
  etcdCaCrt: 'etcd-ca.crt',
  etcdCrt: 'etcd.crt',
  etcdKey: 'etcd.key',
  etcdClientCrt: 'etcd-client.crt',
  etcdClientKey: 'etcd-client.key',
};

function writeFiles(dir: string, values: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(values)) writeFileSync(join(dir, secretKeys[name]), value, { mode: 0o600 });
  const permissions = natsPermissions();
  const tls = { cert_file: resolve(dir, 'nats.crt'), key_file: resolve(dir, 'nats.key') };
  const authorization = natsServerAuthorization([
    { user: 'plinth-gateway', password: values.natsGatewayPassword, permissions: permissions.gateway },
    { user: 'plinth-authz', password: values.natsAuthzPassword, permissions: permissions.authz },
  ]);
  writeFileSync(join(dir, 'nats.conf'), `listen: "127.0.0.1:4222"\ntls: ${JSON.stringify(tls)}\n${authorization}`, { mode: 0o600 });
}

async function main(argv: string[]): Promise<void> {
  const options: PkiValuesOptions = { release: 'plinth', namespace: 'default', servicePort: 443, extraNames: [] };
  let outDir = '';
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--release') options.release = value;
    else if (flag === '--namespace') options.namespace = value;
    else if (flag === '--service-port') options.servicePort = Number(value);
    else if (flag === '--extra-name') options.extraNames.push(value);
    else if (flag === '--out-dir') outDir = value;
    else throw new Error(`unknown flag ${flag}`);
  }
  const values = await pkiValues(options);
  if (outDir) writeFiles(outDir, values.pki);
  else process.stdout.write(stringify(values));
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: Error) => {
    console.error(`Error: ${err.message}`);
    process.exit(2);
  });
}
