// Mutual TLS on the storage link. The service serves only TLS, asks every client for a
// certificate signed by the CA it trusts (a client without one, or with one from another CA,
// fails the handshake), and answers only the identities it allows: a call from any other
// certificate ends PERMISSION_DENIED before it reaches the store.
import { readFileSync } from 'node:fs';
import { PeerCertificate } from 'node:tls';
import {
  ChannelCredentials,
  Metadata,
  ResponderBuilder,
  ServerCredentials,
  ServerInterceptingCall,
  ServerInterceptor,
  ServerListenerBuilder,
  credentials,
  status,
} from '@grpc/grpc-js';

// TlsFiles are the PEM files of one end: the CA it trusts for its peer, and its own
// certificate and key.
export interface TlsFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

// ClientIdentity matches a client certificate's subject: its common name (CN) or one of its
// organizations (O).
export interface ClientIdentity {
  field: 'CN' | 'O';
  value: string;
}

// defaultAllowedClients are the callers of the storage service: the gateway, the authz service
// and the controller manager, by the common names tools/helm-pki-values.ts gives them.
export const defaultAllowedClients: ClientIdentity[] = ['plinth-gateway', 'plinth-authz', 'plinth-controller-manager'].map((value) => ({ field: 'CN', value }));

// StorageServerTls is how the storage service serves: its TLS files and the client identities
// it answers.
export interface StorageServerTls extends TlsFiles {
  allowedClients: readonly ClientIdentity[];
}

export class ClientIdentityError extends Error {}

// parseClientIdentities reads `CN=name`, `O=organization`, or a bare name (a CN).
export function parseClientIdentities(items: string[]): ClientIdentity[] {
  return items.map((item) => {
    const match = /^(CN|O)=(.+)$/.exec(item);
    if (match) return { field: match[1] as 'CN' | 'O', value: match[2] };
    if (item === '' || /^[A-Za-z]+=/.test(item)) throw new ClientIdentityError(`invalid client identity "${item}": want CN=name, O=organization or a name`);
    return { field: 'CN', value: item };
  });
}

export function formatClientIdentity(identity: ClientIdentity): string {
  return `${identity.field}=${identity.value}`;
}

// identityAllowed says whether a certificate subject carries one of the allowed identities.
// Node reports a repeated attribute (two O values) as an array.
export function identityAllowed(subject: Partial<Record<string, string | string[]>> | undefined, allowed: readonly ClientIdentity[]): boolean {
  if (!subject) return false;
  return allowed.some((identity) => {
    const values = subject[identity.field];
    return Array.isArray(values) ? values.includes(identity.value) : values === identity.value;
  });
}

// describeSubject names a certificate in a refusal: its CN and O values.
function describeSubject(certificate: PeerCertificate | undefined): string {
  const subject = certificate?.subject as Partial<Record<string, string | string[]>> | undefined;
  if (!subject?.CN && !subject?.O) return 'a client without a certificate';
  const values = (field: string) => [subject[field] ?? []].flat().map((value) => `${field}=${value}`);
  return [...values('CN'), ...values('O')].join(', ');
}

// clientIdentityInterceptor ends every call whose client certificate carries none of the
// allowed identities with PERMISSION_DENIED, before the call's first message is read.
export function clientIdentityInterceptor(allowed: readonly ClientIdentity[]): ServerInterceptor {
  return (_method, call) => {
    const certificate = call.getAuthContext().sslPeerCertificate;
    if (identityAllowed(certificate?.subject as Partial<Record<string, string | string[]>> | undefined, allowed)) return new ServerInterceptingCall(call);
    const refuse = new ServerListenerBuilder()
      .withOnReceiveMetadata(() => {
        call.sendStatus({
          code: status.PERMISSION_DENIED,
          details: `the storage service does not serve ${describeSubject(certificate)} (allowed: ${allowed.map(formatClientIdentity).join(', ')})`,
          metadata: new Metadata(),
        });
      })
      // Nothing of a refused call reaches the handler.
      .withOnReceiveMessage(() => undefined)
      .withOnReceiveHalfClose(() => undefined)
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(refuse)).build());
  };
}

// storageServerCredentials serves TLS with the service's certificate and requires a client
// certificate signed by the CA.
export function storageServerCredentials(files: TlsFiles): ServerCredentials {
  return ServerCredentials.createSsl(readFileSync(files.caFile), [{ cert_chain: readFileSync(files.certFile), private_key: readFileSync(files.keyFile) }], true);
}

// storageClientCredentials trusts the service's CA and presents the client's certificate.
export function storageClientCredentials(files: TlsFiles): ChannelCredentials {
  return credentials.createSsl(readFileSync(files.caFile), readFileSync(files.keyFile), readFileSync(files.certFile));
}

// StorageLinkSettings are a client's flags for the storage link: its TLS files, or insecure
// (plaintext, for local development only).
export interface StorageLinkSettings {
  caFile: string;
  certFile: string;
  keyFile: string;
  insecure: boolean;
}

export class StorageLinkError extends Error {}

// storageLinkCredentials are the credentials a client's flags ask for; a client without TLS
// files that did not ask for plaintext is refused by name.
export function storageLinkCredentials(link: StorageLinkSettings): ChannelCredentials {
  if (link.insecure) return credentials.createInsecure();
  if (!link.caFile || !link.certFile || !link.keyFile) {
    throw new StorageLinkError(
      'the storage service is reached over mutual TLS only: set --storage-ca-file, --storage-cert-file and --storage-key-file (or --storage-insecure, for local development only)',
    );
  }
  return storageClientCredentials(link);
}
