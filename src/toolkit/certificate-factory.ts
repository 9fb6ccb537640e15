/**
 * The certificates a TPP needs to talk to the bank, for its own tests: a CA and TPP signing
 * certificates with chosen PSD2 roles. The bank's sandbox issues with the same code, which lives with
 * the server's security (security/certificate-issuer.ts) because the server must not depend on the
 * TPP's client kit.
 */
export {
  type AuthorityOptions,
  type CertificateAndKey,
  type TppCertificateOptions,
  createCertificateAuthority,
  issueTppCertificate,
} from '../security/certificate-issuer.js';
