import assert from 'node:assert/strict';
import { X509Certificate, createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.js';
import { SIGNATURE_EXPLANATION_ORDERS_MAX } from '../../src/domain/limits.js';
import { diagnoseCertificateHeader } from '../../src/security/certificate-header-diagnosis.js';
import { parseDigestHeader } from '../../src/security/digest.js';
import { compareDigest, diagnoseDigestFormat } from '../../src/security/digest-diagnosis.js';
import { headerError } from '../../src/security/header-error.js';
import { explainFailedAuthentication } from '../../src/security/signature-explainer.js';
import { recoverSignedDigest } from '../../src/security/signed-digest.js';
import type { SignedRequest } from '../../src/security/signed-request.js';
import { findSignedText } from '../../src/security/signing-string-variants.js';
import { signRequest } from '../../src/toolkit/request-signer.js';
import { type TppFixtures, tppFixtures } from '../support/tpp-fixtures.js';

/**
 * The explainer's diagnoses one by one, beyond the mistakes test/http/signature-explanation.test.ts
 * sends over HTTP: the other forms of a wrong Digest or certificate header, and the signing strings
 * it recognises. Each is named, and nothing it cannot tell is guessed.
 */
let fixtures: TppFixtures;
before(async () => {
  fixtures = await tppFixtures();
});

const BODY = Buffer.from('{"instructedAmount":{"amount":"1.00","currency":"NOK"}}');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

describe('a Digest the bank cannot use', () => {
  for (const [header, name, text] of [
    ['SHA256=' + sha256(BODY).toString('base64'), 'DIGEST_ALGORITHM', /names its algorithm 'SHA256': write SHA-256=/],
    ['SHA_512=' + 'a'.repeat(86) + '==', 'DIGEST_ALGORITHM', /'SHA_512': write SHA-512=/],
    ['MD5=XrY7u+Ae7tCTyyK7j1rNww==', 'DIGEST_ALGORITHM', /'MD5' is not taken/],
    ['sha-256', 'DIGEST_ALGORITHM', /'sha-256' is not of the form SHA-256=/],
    [
      'SHA-256=' + Buffer.from(sha256(BODY).toString('hex')).toString('base64'),
      'DIGEST_ENCODING',
      /is base64 of hex text \(it is the body's SHA-256\)/,
    ],
    ['SHA-256=' + 'ab'.repeat(32), 'DIGEST_ENCODING', /is hex: send base64 of the hash's bytes/],
    ['SHA-256=AAAA', 'DIGEST_ENCODING', /not the base64 of a 32-byte hash/],
  ] as const) {
    it(`${header.slice(0, 24)}…: ${name}`, () => {
      const mistake = diagnoseDigestFormat(header, BODY);
      assert.equal(mistake.name, name);
      assert.equal(mistake.header, 'Digest');
      assert.match(mistake.text, text);
    });
  }

  it('tells a Digest of the empty body, and one of the same JSON serialised again', () => {
    const empty = compareDigest(parseDigestHeader(`SHA-256=${sha256('').toString('base64')}`), BODY);
    assert.match(empty.mistake!.text, /digest of an empty body/);
    const pretty = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 2));
    const reserialised = compareDigest(parseDigestHeader(`SHA-256=${sha256(BODY).toString('base64')}`), pretty);
    assert.match(reserialised.mistake!.text, /same JSON serialised otherwise/);
    const right = compareDigest(parseDigestHeader(`SHA-256=${sha256(BODY).toString('base64')}`), BODY);
    assert.equal(right.mistake, undefined);
    assert.equal(right.facts.received, right.facts.computed);
  });
});

describe('a TPP-Signature-Certificate the bank cannot read', () => {
  it('holding a public key, a CSR-like block or a URL-encoded PEM: CERTIFICATE_UNREADABLE saying which', () => {
    const publicKeyPem = createPublicKey(fixtures.tpp.keyPem).export({ type: 'spki', format: 'pem' }).toString();
    const publicKey = diagnoseCertificateHeader(publicKeyPem.replace(/\n/g, ' '), 'x');
    assert.equal(publicKey.name, 'CERTIFICATE_UNREADABLE');
    assert.match(publicKey.text, /a PEM block of type PUBLIC KEY, not a CERTIFICATE/);
    assert.match(diagnoseCertificateHeader(encodeURIComponent(fixtures.tpp.certPem), 'x').text, /URL-encoded/);
  });

  it('base64 twice: says so', () => {
    const der = new X509Certificate(fixtures.tpp.certPem).raw.toString('base64');
    const mistake = diagnoseCertificateHeader(Buffer.from(der).toString('base64'), 'x');
    assert.match(mistake.text, /base64 of base64 of the certificate/);
  });

  it('a private key as base64 of its DER: CERTIFICATE_IS_PRIVATE_KEY, the key not echoed', () => {
    const der = createPrivateKey(fixtures.tpp.keyPem).export({ type: 'pkcs8', format: 'der' }).toString('base64');
    const mistake = diagnoseCertificateHeader(der, 'x');
    assert.equal(mistake.name, 'CERTIFICATE_IS_PRIVATE_KEY');
    assert.ok(!mistake.text.includes(der.slice(40, 60)));
  });
});

describe('the text a signature by the certificate key was made over', () => {
  const request = (headers: Record<string, string>): SignedRequest => ({
    method: 'POST',
    target: '/v1/payments/x?y=1',
    headers,
    body: undefined,
  });
  const signedOver = (text: string) => {
    const signature = sign('sha256', Buffer.from(text), createPrivateKey(fixtures.tpp.keyPem));
    return recoverSignedDigest(signature, new X509Certificate(fixtures.tpp.certPem).publicKey)!;
  };
  const headers = { date: 'Mon, 01 Jan 2024 00:00:00 GMT', digest: 'SHA-256=x', 'x-request-id': 'r', 'psu-id': 'p' };

  for (const [label, text, name, says] of [
    [
      'a line break after the last line',
      'date: Mon, 01 Jan 2024 00:00:00 GMT\ndigest: SHA-256=x\nx-request-id: r\npsu-id: p\n',
      'SIGNING_STRING_FORM',
      /line break after its last line/,
    ],
    [
      'no space after the colon',
      'date:Mon, 01 Jan 2024 00:00:00 GMT\ndigest:SHA-256=x\nx-request-id:r\npsu-id:p',
      'SIGNING_STRING_FORM',
      /name:value/,
    ],
  ] as const) {
    it(`${label}: ${name}`, () => {
      const found = findSignedText(request(headers), ['date', 'digest', 'x-request-id', 'psu-id'], signedOver(text));
      assert.equal(found?.name, name);
      assert.match(found!.text, says);
    });
  }

  it('(request-target) with the method in upper case: SIGNING_STRING_FORM', () => {
    const found = findSignedText(
      request(headers),
      ['(request-target)', 'x-request-id'],
      signedOver('(request-target): POST /v1/payments/x?y=1\nx-request-id: r'),
    );
    assert.match(found!.text, /method in upper case/);
  });

  it('with more headers than SIGNATURE_EXPLANATION_ORDERS_MAX orders: the Berlin Group order is still found', () => {
    const many: Record<string, string> = { ...headers, 'psu-corporate-id': 'c', 'tpp-redirect-uri': 'u', 'x-a': 'a' };
    const listed = ['x-a', 'tpp-redirect-uri', 'psu-corporate-id', 'psu-id', 'x-request-id', 'digest', 'date'];
    assert.ok(
      listed.length >= 6 &&
        [...Array(listed.length).keys()].reduce((p, i) => p * (i + 1), 1) > SIGNATURE_EXPLANATION_ORDERS_MAX,
    );
    const berlinGroup = ['date', 'digest', 'x-request-id', 'psu-id', 'psu-corporate-id', 'tpp-redirect-uri', 'x-a'];
    const found = findSignedText(
      request(many),
      listed,
      signedOver(berlinGroup.map((name) => `${name}: ${many[name]}`).join('\n')),
    );
    assert.equal(found?.name, 'SIGNED_HEADERS_ORDER');
    assert.match(found!.text, new RegExp(`in the order '${berlinGroup.join(' ')}'`));
  });

  it('a changed value is not guessed: nothing is found', () => {
    const found = findSignedText(
      request(headers),
      ['date', 'digest', 'x-request-id', 'psu-id'],
      signedOver('date: Mon, 01 Jan 2024 00:00:00 GMT\ndigest: SHA-256=x\nx-request-id: other\npsu-id: p'),
    );
    assert.equal(found, undefined);
  });
});

describe('the explanation of a refusal', () => {
  it('leads with the refusal itself where it found nothing at its header', () => {
    const headers = signRequest({ method: 'GET', url: '/v1/x', credentials: fixtures.tpp });
    const refusal = headerError('FORMAT_ERROR', 'PSU-IP-Address', 'is not an address');
    const explanation = explainFailedAuthentication({
      request: { method: 'GET', target: '/v1/x', headers, body: undefined },
      digestRequired: false,
      refusal,
      now: Date.now(),
      dateSkewSeconds: 300,
    });
    assert.deepEqual(explanation.mistakes, [
      { name: 'OTHER', header: 'PSU-IP-Address', text: 'PSU-IP-Address is not an address' },
    ]);
    assert.equal(explanation.signatureVerifies, true);
  });

  it('shows a signed Authorization header by its length only', () => {
    const headers = signRequest({
      method: 'GET',
      url: '/v1/x',
      credentials: fixtures.tpp,
      headers: { Authorization: 'Bearer secret-token' },
      signedHeaders: ['date', 'x-request-id', 'authorization'],
    });
    const explanation = explainFailedAuthentication({
      request: { method: 'GET', target: '/v1/x', headers, body: undefined },
      digestRequired: false,
      refusal: new ApiError('SIGNATURE_INVALID', 'x'),
      now: Date.now(),
      dateSkewSeconds: 300,
    });
    assert.equal(explanation.signingString?.at(-1), 'authorization: <not shown: 19 characters>');
    assert.ok(!JSON.stringify(explanation).includes('secret-token'));
  });
});
