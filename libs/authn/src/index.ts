// @plinth/authn: request authentication as kube-apiserver does it (request-header, client
// certificates, static and service account tokens, anonymous) and user impersonation. Pure
// functions over headers, certificates and file contents the caller provides.
export * from './user';
export { AuthenticationError, unauthorizedError } from './errors';
export { HeaderMap, headerValue, headerValues, unescapeExtraKey } from './headers';
export { makeServiceAccountUsername, makeServiceAccountGroupNames, splitServiceAccountUsername } from './service-account';
export { ExtKeyUsage } from './der';
export {
  Certificate,
  CertPool,
  PeerCertificateChain,
  ClientCertificateOptions,
  VerifyOptions,
  authenticateClientCertificate,
  certificateIdentifier,
  parseCertificate,
  peerCertificates,
  verifyCertificate,
  verifyPeerChain,
} from './x509';
export { StaticTokens, CsvParseError, parseTokenFile, readCsv } from './token-file';
export { JwsAlgorithm, keyID, parsePublicKeys } from './jws';
export * from './service-account-token';
export * from './request-header';
export * from './bearer-token';
export * from './impersonation';
export * from './chain';
