// makeLinkPki writes, into a throw-away directory, the certificates of the links between
// Plinth's services as tools/helm-pki-values.ts issues them in a cluster: an internal CA for
// the storage service (its serving certificate, and one client certificate per caller:
// plinth-gateway, plinth-authz, plinth-controller-manager) and for NATS's serving
// certificate; an etcd CA for etcd's serving (and peer) certificate and the storage service's
// etcd client certificate. For refusal tests it adds a client certificate the internal CA
// signed for an identity nobody allows, and a plinth-gateway certificate from another CA.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertificateRequest, issueCertificate, KeyPairPem, newCertificateAuthority } from '@plinth/pki';

// LinkTls are the files one end of a link uses: the CA it trusts, its certificate and key.
export interface LinkTls {
  caFile: string;
  certFile: string;
  keyFile: string;
}

export interface LinkPki {
  dir: string;
  // internalCa (certificate and key) issues more certificates a test needs.
  internalCa: KeyPairPem;
  // internalCaFile signed the storage service's and NATS's certificates and the callers'.
  internalCaFile: string;
  storageServer: LinkTls;
  gatewayClient: LinkTls;
  authzClient: LinkTls;
  controllerManagerClient: LinkTls;
  natsServer: LinkTls;
  etcdServer: LinkTls;
  etcdClient: LinkTls;
  // refusedClient (CN=plinth-intruder) is signed by the internal CA but allowed nowhere.
  refusedClient: LinkTls;
  // foreignGatewayClient says CN=plinth-gateway, signed by a CA nobody trusts.
  foreignGatewayClient: LinkTls;
  // nats are the NATS users of the gateway and authz (plinth-gateway, plinth-authz), with
  // random passwords, also written to passwordFile.
  nats: Record<'gateway' | 'authz', NatsCredentials>;
  remove(): void;
}

export interface NatsCredentials {
  user: string;
  password: string;
  passwordFile: string;
}

const loopback = { dns: ['localhost'], ips: ['127.0.0.1', '::1'] };

export function makeLinkPki(): LinkPki {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-link-pki-'));
  const internalCa = newCertificateAuthority('plinth-internal-ca');
  const etcdCa = newCertificateAuthority('plinth-etcd-ca');
  const foreignCa = newCertificateAuthority('plinth-internal-ca');
  const write = (name: string, pem: string) => {
    const path = join(dir, name);
    writeFileSync(path, pem, { mode: 0o600 });
    return path;
  };
  const internalCaFile = write('internal-ca.crt', internalCa.cert);
  const etcdCaFile = write('etcd-ca.crt', etcdCa.cert);
  const foreignCaFile = write('foreign-ca.crt', foreignCa.cert);
  const issue = (name: string, ca: KeyPairPem, caFile: string, request: CertificateRequest): LinkTls => {
    const pair = issueCertificate(ca, request);
    return { caFile, certFile: write(`${name}.crt`, pair.cert), keyFile: write(`${name}.key`, pair.key) };
  };
  const client = (commonName: string) => ({ commonName, usage: 'client' as const });
  const natsUser = (who: 'gateway' | 'authz'): NatsCredentials => {
    const password = randomBytes(18).toString('base64url');
    return { user: `plinth-${who}`, password, passwordFile: write(`nats-${who}.password`, password) };
  };
  return {
    dir,
    internalCa,
    internalCaFile,
    storageServer: issue('storage', internalCa, internalCaFile, { commonName: 'plinth-storage', usage: 'server', ...loopback }),
    gatewayClient: issue('gateway', internalCa, internalCaFile, client('plinth-gateway')),
    authzClient: issue('authz', internalCa, internalCaFile, client('plinth-authz')),
    controllerManagerClient: issue('controller-manager', internalCa, internalCaFile, client('plinth-controller-manager')),
    natsServer: issue('nats', internalCa, internalCaFile, { commonName: 'plinth-nats', usage: 'server', ...loopback }),
    etcdServer: issue('etcd', etcdCa, etcdCaFile, { commonName: 'plinth-etcd', usage: 'peer', ...loopback }),
    etcdClient: issue('etcd-client', etcdCa, etcdCaFile, client('plinth-storage')),
    refusedClient: issue('intruder', internalCa, internalCaFile, client('plinth-intruder')),
    foreignGatewayClient: issue('foreign-gateway', foreignCa, foreignCaFile, client('plinth-gateway')),
    nats: { gateway: natsUser('gateway'), authz: natsUser('authz') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// The command-line flags of each end of the links, for tests that start the processes.
export function storageServingFlags(pki: LinkPki): string[] {
  const { certFile, keyFile, caFile } = pki.storageServer;
  return ['--tls-cert-file', certFile, '--tls-private-key-file', keyFile, '--client-ca-file', caFile];
}

export function etcdClientFlags(pki: LinkPki): string[] {
  const { caFile, certFile, keyFile } = pki.etcdClient;
  return ['--etcd-cafile', caFile, '--etcd-certfile', certFile, '--etcd-keyfile', keyFile];
}

export function storageClientFlags(client: LinkTls): string[] {
  return ['--storage-ca-file', client.caFile, '--storage-cert-file', client.certFile, '--storage-key-file', client.keyFile];
}

export function natsClientFlags(pki: LinkPki, who: 'gateway' | 'authz'): string[] {
  return ['--nats-ca-file', pki.internalCaFile, '--nats-user', pki.nats[who].user, '--nats-password-file', pki.nats[who].passwordFile];
}
