export { CertificateRequest, issueCertificate, KeyPairPem, newCertificateAuthority, newPrivateKeyPem } from './certificates';
