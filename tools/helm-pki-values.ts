// helm-pki-values writes the values file with the PKI helm/plinth needs, for a release in a
// namespace: a cluster CA, the API serving certificate for the gateway Service's names, the
// admin client certificate, the service-account signing key, and the controller manager's
// kubeconfig (as system:kube-controller-manager, not admin) pointing at the gateway Service. Every gateway replica mounts the same PKI.
//
//   node -r ./tools/register.js tools/helm-pki-values.ts --release plinth --namespace plinth > pki.yaml
//
// Keep pki.yaml secret; reuse it on upgrades (a new CA invalidates every issued credential).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { controllerManagerKubeconfig, ensureClusterPki } from '@plinth/apiserver';

export interface PkiValuesOptions {
  release: string;
  namespace: string;
  // servicePort is the gateway Service's port (gateway.service.port).
  servicePort: number;
  // extraNames are more DNS names for the serving certificate (an external load balancer).
  extraNames: string[];
}

export function pkiValues(options: PkiValuesOptions): { pki: Record<string, string> } {
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
      serviceAccountKey: readFileSync(pki.files.serviceAccountKey, 'utf8'),
      controllersKubeconfig: controllerManagerKubeconfig(`https://${service}.${options.namespace}.svc${port}`, pki),
    };
    // node-forge writes PEM with CRLF; plain newlines keep the values file readable.
    return { pki: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.replace(/\r\n/g, '\n')])) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(argv: string[]): void {
  const options: PkiValuesOptions = { release: 'plinth', namespace: 'default', servicePort: 443, extraNames: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--release') options.release = value;
    else if (flag === '--namespace') options.namespace = value;
    else if (flag === '--service-port') options.servicePort = Number(value);
    else if (flag === '--extra-name') options.extraNames.push(value);
    else throw new Error(`unknown flag ${flag}`);
  }
  process.stdout.write(stringify(pkiValues(options)));
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error(`Error: ${(err as Error).message}`);
    process.exit(2);
  }
}
