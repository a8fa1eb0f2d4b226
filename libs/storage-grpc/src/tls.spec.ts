// The storage link's identities and credentials, without a server (tls.spec.ts of libs/nest's
// storage service has the handshakes).
import { identityAllowed, parseClientIdentities, storageLinkCredentials, StorageLinkError } from './tls';

describe('identityAllowed', () => {
  const allowed = parseClientIdentities(['CN=a', 'O=team']);
  it('matches the common name or any of the organizations', () => {
    expect(identityAllowed({ CN: 'a' }, allowed)).toBe(true);
    expect(identityAllowed({ CN: 'b', O: 'team' }, allowed)).toBe(true);
    expect(identityAllowed({ CN: 'b', O: ['other', 'team'] }, allowed)).toBe(true);
    expect(identityAllowed({ CN: 'b', O: ['other'] }, allowed)).toBe(false);
    expect(identityAllowed({ O: 'a' }, allowed)).toBe(false);
    expect(identityAllowed(undefined, allowed)).toBe(false);
  });
});

describe('storageLinkCredentials', () => {
  it('refuses a client with neither TLS files nor --storage-insecure', () => {
    expect(() => storageLinkCredentials({ caFile: '/ca', certFile: '', keyFile: '', insecure: false })).toThrow(StorageLinkError);
    expect(() => storageLinkCredentials({ caFile: '', certFile: '', keyFile: '', insecure: false })).toThrow(
      'the storage service is reached over mutual TLS only: set --storage-ca-file, --storage-cert-file and --storage-key-file (or --storage-insecure, for local development only)',
    );
    expect(storageLinkCredentials({ caFile: '', certFile: '', keyFile: '', insecure: true })._isSecure()).toBe(false);
  });
});
