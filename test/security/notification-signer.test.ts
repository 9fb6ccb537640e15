import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { flattenedVerify, importJWK } from 'jose';
import { NotificationSigner } from '../../src/security/notification-signer.js';

/**
 * The JWS a notification carries (X-JWS-Signature, detached payload) is checked by a TPP's JOSE
 * library against the published key: made with node:crypto, it must be what jose verifies, for
 * each kind of key the bank may sign with (docs/notifications.md, "Checking a notification").
 */
const KEYS = {
  ES256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  PS256: generateKeyPairSync('rsa', { modulusLength: 2048 }),
} as const;
const BODY = JSON.stringify({ eventId: 'e-1', transactionStatus: 'ACSC', text: 'æøå ✓' });

async function verify(signer: NotificationSigner, signature: string, body: string) {
  const [header = '', empty, value = ''] = signature.split('.');
  assert.equal(empty, '', 'the payload is detached');
  const jwk = await signer.publicJwk();
  return flattenedVerify(
    { protected: header, payload: Buffer.from(body).toString('base64url'), signature: value },
    await importJWK(jwk, jwk.alg as string),
  );
}

describe('the notification signature', () => {
  for (const alg of ['ES256', 'PS256'] as const)
    it(`is a detached JWS (${alg}) that jose verifies with the published key, and fails over a changed body`, async () => {
      const signer = new NotificationSigner({ ...KEYS[alg], alg });
      const now = new Date('2026-11-29T12:00:00.900Z');
      const signature = await signer.sign(BODY, now);
      const { protectedHeader } = await verify(signer, signature, BODY);
      assert.deepEqual(protectedHeader, {
        alg,
        kid: (await signer.publicJwk()).kid,
        typ: 'JOSE',
        iat: Math.floor(now.getTime() / 1000),
      });
      await assert.rejects(verify(signer, signature, BODY.replace('ACSC', 'RJCT')), {
        code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      });
    });
});
