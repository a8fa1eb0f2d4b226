// authenticationConfig reads the authentication flags into @plinth/authn's configuration:
// the files are read once, at start.
import { readFileSync } from 'node:fs';
import { AuthenticationConfig, parseTokenFile } from '@plinth/authn';
import { createPublicKey } from 'node:crypto';
import { ServerFlags } from '../flags';
import { ServiceAccountTokenSigning } from '../server-context';

export const defaultServiceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';

export function authenticationConfig(flags: ServerFlags): AuthenticationConfig {
  const read = (path: string) => readFileSync(path, 'utf8');
  const config: AuthenticationConfig = { anonymous: flags.anonymousAuth };
  if (flags.tokenAuthFile) config.tokenFile = parseTokenFile(read(flags.tokenAuthFile), flags.tokenAuthFile);
  if (flags.clientCAFile) config.clientCA = read(flags.clientCAFile);
  const publicKeys = flags.serviceAccountKeyFiles.map((path) => publicKeyPem(read(path)));
  if (publicKeys.length === 0 && flags.serviceAccountSigningKeyFile) publicKeys.push(publicKeyPem(read(flags.serviceAccountSigningKeyFile)));
  if (publicKeys.length > 0) {
    const issuers = flags.serviceAccountIssuers.length ? flags.serviceAccountIssuers : [defaultServiceAccountIssuer];
    config.serviceAccountTokens = { publicKeys, issuers, audiences: apiAudiences(flags) };
  }
  config.apiAudiences = apiAudiences(flags);
  if (flags.requestHeaderClientCAFile) {
    config.requestHeader = {
      clientCA: read(flags.requestHeaderClientCAFile),
      allowedNames: flags.requestHeaderAllowedNames,
      ...(flags.requestHeaderUsernameHeaders.length ? { usernameHeaders: flags.requestHeaderUsernameHeaders } : {}),
      ...(flags.requestHeaderGroupHeaders.length ? { groupHeaders: flags.requestHeaderGroupHeaders } : {}),
      ...(flags.requestHeaderExtraHeadersPrefix.length ? { extraHeaderPrefixes: flags.requestHeaderExtraHeadersPrefix } : {}),
    };
  }
  return config;
}

// apiAudiences is --api-audiences, the first service-account issuer when unset.
function apiAudiences(flags: ServerFlags): string[] {
  return flags.apiAudiences.length ? flags.apiAudiences : [flags.serviceAccountIssuers[0] ?? defaultServiceAccountIssuer];
}

export function serviceAccountTokenSigning(flags: ServerFlags): ServiceAccountTokenSigning | null {
  if (!flags.serviceAccountSigningKeyFile) return null;
  const issuer = flags.serviceAccountIssuers[0] ?? defaultServiceAccountIssuer;
  return { issuer, privateKey: readFileSync(flags.serviceAccountSigningKeyFile, 'utf8'), apiAudiences: apiAudiences(flags) };
}

// publicKeyPem accepts a public key or a private key (whose public half verifies).
function publicKeyPem(pem: string): string {
  return createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString();
}
