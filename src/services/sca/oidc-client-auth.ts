import { type JsonWebKey, createPrivateKey, webcrypto } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as oidc from 'openid-client';
import type { PsuOidcClientAuth } from '../../config/psu-oidc-settings.js';

/** A client key the server cannot use: the start stops, naming PSU_OIDC_CLIENT_KEY_FILE. */
export class OidcClientKeyError extends Error {
  constructor(reason: string) {
    super(`PSU_OIDC_CLIENT_KEY_FILE ${reason}`);
    this.name = 'OidcClientKeyError';
  }
}

/**
 * How the bank authenticates at the provider's token endpoint: the shared secret
 * (client_secret_basic), or an assertion signed with the bank's key (private_key_jwt; RS256 for an
 * RSA key, ES256 for P-256, EdDSA for Ed25519), read once at start from PEM or a JWK (whose `kid`
 * the assertion then names).
 */
export async function oidcClientAuth(auth: PsuOidcClientAuth): Promise<oidc.ClientAuth> {
  if (auth.kind === 'client-secret') return oidc.ClientSecretBasic(auth.secret);
  let text: string;
  try {
    text = await readFile(auth.keyFile, 'utf8');
  } catch (error) {
    throw new OidcClientKeyError(`cannot be read (${auth.keyFile}): ${(error as Error).message}`);
  }
  // A JWK names its key (kid), which providers that hold several of the bank's keys look it up by.
  const jwk = jwkOf(text);
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = jwk === undefined ? createPrivateKey(text) : createPrivateKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new OidcClientKeyError(`(${auth.keyFile}) holds no private key in PEM or as a JWK`);
  }
  const algorithm = signingAlgorithmOf(key.asymmetricKeyType, key.asymmetricKeyDetails?.namedCurve);
  if (algorithm === undefined)
    throw new OidcClientKeyError(
      `(${auth.keyFile}) must hold an RSA, P-256 or Ed25519 key (got ${key.asymmetricKeyType})`,
    );
  const der = key.export({ type: 'pkcs8', format: 'der' });
  const cryptoKey = await webcrypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']);
  const kid = typeof jwk?.kid === 'string' ? jwk.kid : undefined;
  return oidc.PrivateKeyJwt(kid === undefined ? cryptoKey : { key: cryptoKey, kid });
}

/** The file's JSON Web Key, when it holds one rather than PEM. */
function jwkOf(text: string): (JsonWebKey & { kid?: unknown }) | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    return JSON.parse(text) as JsonWebKey & { kid?: unknown };
  } catch {
    return undefined;
  }
}

function signingAlgorithmOf(
  type: string | undefined,
  curve: string | undefined,
): webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | webcrypto.Algorithm | undefined {
  if (type === 'rsa') return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  if (type === 'ec' && curve === 'prime256v1') return { name: 'ECDSA', namedCurve: 'P-256' };
  if (type === 'ed25519') return { name: 'Ed25519' };
  return undefined;
}
