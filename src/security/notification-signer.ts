import { constants, sign } from 'node:crypto';
import type { NotificationSigningKey } from './notification-signing-key.js';

/** The header that carries a notification's signature: a JWS over the body, its payload detached (RFC 7515, Appendix F). */
export const NOTIFICATION_SIGNATURE_HEADER = 'X-JWS-Signature';

/** A JSON Web Key Set of the bank's notification key (RFC 7517): what GET /.well-known/jwks.json answers. */
export interface Jwks {
  keys: Record<string, unknown>[];
}

/**
 * Signs notifications with the bank's key (docs/notifications.md, "Checking a notification";
 * docs/decisions/0332), as a
 * JWS (RFC 7515) with a detached payload: the body goes as it is, and X-JWS-Signature carries
 * `protected..signature`, the key named by `kid`, its RFC 7638 thumbprint, which the published JWKS
 * lists. A TPP checks it with any JOSE library: jose's flattenedVerify with the body as payload.
 * The protected header also says when it was signed (`iat`, seconds), so a TPP may refuse an old
 * notification replayed to it. The JWS is made with node:crypto's sign, not jose's CompactSign: the
 * same bytes, at a third of the CPU a notification (jose's goes through WebCrypto; the relay signs
 * every try); jose computes the kid, once.
 */
export class NotificationSigner {
  private kid: string | undefined;
  private jwk: Record<string, unknown> | undefined;

  constructor(private readonly key: NotificationSigningKey) {}

  /** The value of X-JWS-Signature for `body`. */
  async sign(body: string, now: Date): Promise<string> {
    const header = Buffer.from(
      JSON.stringify({
        alg: this.key.alg,
        kid: await this.keyId(),
        typ: 'JOSE',
        iat: Math.floor(now.getTime() / 1000),
      }),
    ).toString('base64url');
    const input = Buffer.from(`${header}.${Buffer.from(body).toString('base64url')}`);
    // RFC 7518: ES256 is R || S, 32 bytes each (not DER); PS256 is RSASSA-PSS with SHA-256 and a salt of 32 bytes.
    const signature =
      this.key.alg === 'ES256'
        ? sign('sha256', input, { key: this.key.privateKey, dsaEncoding: 'ieee-p1363' })
        : sign('sha256', input, {
            key: this.key.privateKey,
            padding: constants.RSA_PKCS1_PSS_PADDING,
            saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
          });
    return `${header}..${signature.toString('base64url')}`;
  }

  /** The key's RFC 7638 thumbprint, which names it in `kid`. */
  async keyId(): Promise<string> {
    if (this.kid === undefined) {
      const { calculateJwkThumbprint } = await import('jose');
      this.kid = await calculateJwkThumbprint((await this.rawJwk()) as Parameters<typeof calculateJwkThumbprint>[0]);
    }
    return this.kid;
  }

  private async rawJwk(): Promise<Record<string, unknown>> {
    return (this.jwk ??= this.key.publicKey.export({ format: 'jwk' }) as Record<string, unknown>);
  }

  /** The public key as the JWKS lists it. */
  async publicJwk(): Promise<Record<string, unknown>> {
    return { ...(await this.rawJwk()), kid: await this.keyId(), alg: this.key.alg, use: 'sig' };
  }
}
