/**
 * Which kind of trust anchor issued a TPP's certificate (docs/decisions/0271):
 * - 'self-service': the sandbox's own CA, which issues a certificate for any organisation identifier
 *   to anyone who asks (POST /v1/sandbox/certificates). Its certificate proves nothing about who holds
 *   the identifier, so it reaches a sandbox bank only with a key bound to that bank.
 * - 'trusted': a CA the operator chose to trust (TRUSTED_CA_CERTS). Its certificate proves its
 *   identifier by itself, as in production, so it opens its organisation's bank whatever its key.
 */
export type CertificateAnchor = 'self-service' | 'trusted';
