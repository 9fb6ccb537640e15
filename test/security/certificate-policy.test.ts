import 'reflect-metadata';
import assert from 'node:assert/strict';
import { X509Certificate, webcrypto } from 'node:crypto';
import { before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import {
  CERTIFICATE_EC_MIN_BITS,
  CERTIFICATE_RSA_MIN_BITS,
  CERTIFICATE_SIGNATURE_HASH_MIN_BITS,
} from '../../src/domain/limits.js';
import { PSP_ROLES } from '../../src/domain/psp-role.js';
import { CertificateRefusedError } from '../../src/security/der-certificate.js';
import {
  type ParsedCertificate,
  decodeCertificateHeader,
  parseCertificate,
} from '../../src/security/tpp-certificate.js';
import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueTppCertificate,
} from '../../src/security/certificate-issuer.js';
import {
  issueRefused,
  otherKey,
  pem,
  refusedAuthority,
  rsaKey,
  withBytesReplaced,
  withRsaSignatureAlgorithm,
} from '../support/refused-certificates.js';

/**
 * What a qualified trust service would never issue is refused when the certificate is read
 * (parseCertificate), whoever issued it: every reason, each a phrase that says what is wrong.
 */

let ecCa: CertificateAndKey;
let rsaCa: CertificateAndKey;

const derOf = (certificate: CertificateAndKey) => Buffer.from(new X509Certificate(certificate.certPem).raw);
const parse = (certificate: CertificateAndKey): ParsedCertificate => parseCertificate(derOf(certificate));

/** parseCertificate refuses the DER with exactly these reasons (each matched in order). */
function refuses(der: Buffer, ...patterns: RegExp[]): void {
  assert.throws(
    () => parseCertificate(der),
    (error: unknown) => {
      assert.ok(error instanceof CertificateRefusedError, `expected a CertificateRefusedError, got ${String(error)}`);
      assert.equal(error.reasons.length, patterns.length, `reasons: ${JSON.stringify(error.reasons)}`);
      patterns.forEach((pattern, i) => assert.match(error.reasons[i]!, pattern));
      return true;
    },
  );
}

before(async () => {
  [ecCa, rsaCa] = await Promise.all([
    createCertificateAuthority({ commonName: 'Test PSD2 CA' }),
    refusedAuthority({ rsaBits: 2048, commonName: 'RSA PSD2 CA' }),
  ]);
});

describe('certificates of acceptable strength', () => {
  it('reads the toolkit CA (EC P-256, ecdsa-with-SHA256) and its TPP certificates (RSA 2048, EC P-256)', async () => {
    const [rsaTpp, ecTpp] = await Promise.all([
      issueTppCertificate({ issuer: ecCa, roles: ['PSP_PI'] }),
      issueTppCertificate({ issuer: ecCa, roles: ['PSP_PI'], keyType: 'ec' }),
    ]);
    assert.equal(parse(ecCa).x509.ca, true);
    assert.equal(parse(rsaTpp).publicKey.asymmetricKeyDetails?.modulusLength, CERTIFICATE_RSA_MIN_BITS);
    assert.equal(parse(ecTpp).publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  });

  it('reads keys on P-384, P-521 and brainpoolP256r1, and an RSA key of 3072 bits', async () => {
    for (const curve of ['secp384r1', 'secp521r1', 'brainpoolP256r1']) {
      const key = otherKey('ec', curve);
      assert.equal(
        parse(await issueRefused({ issuer: ecCa, publicKeySpki: key.spki })).publicKey.asymmetricKeyDetails?.namedCurve,
        curve,
      );
    }
    const rsa3072 = rsaKey(3072);
    assert.equal(
      parse(await issueRefused({ issuer: ecCa, publicKeySpki: rsa3072.spki })).publicKey.asymmetricKeyDetails
        ?.modulusLength,
      3072,
    );
  });

  it('reads certificates signed with SHA-384 and SHA-512, by an RSA and an EC CA', async () => {
    for (const issuer of [ecCa, rsaCa]) {
      for (const hash of ['SHA-384', 'SHA-512'] as const) parse(await issueRefused({ issuer, hash }));
    }
  });

  it('reads a certificate signed with RSASSA-PSS and SHA-256', async () => {
    const algorithm = {
      name: 'RSA-PSS',
      hash: 'SHA-256',
      publicExponent: new Uint8Array([1, 0, 1]),
      modulusLength: 2048,
      saltLength: 32,
    };
    const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const ca = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=PSS CA',
      keys,
      signingAlgorithm: algorithm,
      extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
    });
    const parsed = parseCertificate(Buffer.from(ca.rawData));
    assert.equal(parsed.name, 'PSS CA');
  });
});

describe('certificates a qualified trust service would never issue', () => {
  it(`refuses an RSA key under ${CERTIFICATE_RSA_MIN_BITS} bits, saying its size`, async () => {
    for (const bits of [512, 1024, 2047]) {
      const key = rsaKey(bits);
      refuses(
        derOf(await issueRefused({ issuer: ecCa, publicKeySpki: key.spki })),
        new RegExp(`^has a ${bits}-bit RSA key; at least 2048 bits are required$`),
      );
    }
  });

  it('refuses an RSA key with public exponent 3', async () => {
    const key = rsaKey(2048, 3);
    refuses(
      derOf(await issueRefused({ issuer: ecCa, publicKeySpki: key.spki })),
      /^has an RSA key with public exponent 3; it must be odd and at least 65537$/,
    );
  });

  it(`refuses an EC key on a curve of under ${CERTIFICATE_EC_MIN_BITS} bits (P-192, P-224), saying its size`, async () => {
    for (const [curve, bits] of [
      ['prime192v1', 192],
      ['secp224r1', 224],
    ] as const) {
      const key = otherKey('ec', curve);
      refuses(
        derOf(await issueRefused({ issuer: ecCa, publicKeySpki: key.spki })),
        new RegExp(
          `^has an EC key on the ${bits}-bit curve ${curve}, weaker than P-256; EC keys must be on a curve of at least 256 bits`,
        ),
      );
    }
  });

  it('refuses an EC key on a 256-bit curve qualified certificates do not use (secp256k1)', async () => {
    const key = otherKey('ec', 'secp256k1');
    refuses(
      derOf(await issueRefused({ issuer: ecCa, publicKeySpki: key.spki })),
      /^has an EC key on curve secp256k1, which qualified certificates do not use; the bank accepts EC keys on P-256, P-384, P-521/,
    );
  });

  it('refuses DSA and Ed25519 keys, which the bank does not verify', async () => {
    refuses(
      derOf(await issueRefused({ issuer: ecCa, publicKeySpki: otherKey('dsa').spki })),
      /^has a DSA key, which the bank does not verify; the bank accepts RSA keys of at least 2048 bits and EC keys on P-256/,
    );
    refuses(
      derOf(await issueRefused({ issuer: ecCa, publicKeySpki: otherKey('ed25519').spki })),
      /^has an Ed25519 key, which the bank does not verify/,
    );
  });

  it('refuses a key node cannot read, naming its algorithm OID', async () => {
    const good = await issueRefused({ issuer: ecCa });
    // rsaEncryption (1.2.840.113549.1.1.1) becomes 1.2.840.113549.1.1.99: the key's bytes no longer mean anything.
    const unknown = withBytesReplaced(
      good,
      Buffer.from('06092a864886f70d010101', 'hex'),
      Buffer.from('06092a864886f70d010163', 'hex'),
    );
    refuses(
      derOf(unknown),
      /^has a public key of a type the bank cannot read \(algorithm 1\.2\.840\.113549\.1\.1\.99\)/,
    );
  });

  it('refuses a certificate signed with SHA-1, by an EC CA (ecdsa-with-SHA1) and by an RSA CA (sha1WithRSAEncryption)', async () => {
    refuses(
      derOf(await issueRefused({ issuer: ecCa, hash: 'SHA-1' })),
      /^is signed with ecdsa-with-SHA1: SHA-1 is broken \(collisions can be computed\).*hash of at least 256 bits \(SHA-256, SHA-384 or SHA-512\)$/,
    );
    refuses(
      derOf(await issueRefused({ issuer: rsaCa, hash: 'SHA-1' })),
      /^is signed with sha1WithRSAEncryption: SHA-1 is broken/,
    );
  });

  it('refuses a certificate signed with MD5 (a real signature the CA key verifies) and MD2', async () => {
    const good = await issueRefused({ issuer: rsaCa });
    const md5 = withRsaSignatureAlgorithm(good, rsaCa.keyPem, 0x04, 'md5');
    const ca = parse(rsaCa);
    assert.equal(
      new X509Certificate(md5.certPem).verify(ca.publicKey),
      true,
      'the CA key verifies the MD5 signature, so only the hash tells it apart',
    );
    refuses(derOf(md5), /^is signed with md5WithRSAEncryption: MD5 is broken/);
    refuses(
      derOf(withRsaSignatureAlgorithm(good, rsaCa.keyPem, 0x02, undefined)),
      /^is signed with md2WithRSAEncryption: MD2 is broken/,
    );
  });

  it(`refuses a hash of under ${CERTIFICATE_SIGNATURE_HASH_MIN_BITS} bits (sha224WithRSAEncryption)`, async () => {
    const sha224 = withRsaSignatureAlgorithm(await issueRefused({ issuer: rsaCa }), rsaCa.keyPem, 0x0e, 'sha224');
    refuses(
      derOf(sha224),
      /^is signed with sha224WithRSAEncryption: SHA-224 has 224 bits; certificates must be signed/,
    );
  });

  it('refuses RSASSA-PSS with SHA-1', async () => {
    const algorithm = {
      name: 'RSA-PSS',
      hash: 'SHA-1',
      publicExponent: new Uint8Array([1, 0, 1]),
      modulusLength: 2048,
      saltLength: 20,
    };
    const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const ca = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=PSS CA',
      keys,
      signingAlgorithm: algorithm,
      extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
    });
    refuses(Buffer.from(ca.rawData), /^is signed with RSASSA-PSS with SHA-1: SHA-1 is broken/);
  });

  it('refuses a signature algorithm it does not know, naming its OID', async () => {
    const odd = withRsaSignatureAlgorithm(await issueRefused({ issuer: rsaCa }), rsaCa.keyPem, 0x63, undefined);
    refuses(derOf(odd), /^is signed with algorithm 1\.2\.840\.113549\.1\.1\.99, which the bank does not verify/);
  });

  it('refuses a certificate whose signed part names another signature algorithm than its signature', async () => {
    const good = await issueRefused({ issuer: rsaCa, hash: 'SHA-512' });
    // Only the first sha512WithRSAEncryption, the one inside the TBSCertificate, becomes sha384WithRSAEncryption.
    const mixed = withBytesReplaced(
      good,
      Buffer.from('06092a864886f70d01010d', 'hex'),
      Buffer.from('06092a864886f70d01010c', 'hex'),
    );
    refuses(
      derOf(mixed),
      /^is signed with sha512WithRSAEncryption, but its signed part names sha384WithRSAEncryption; RFC 5280 requires the two to be the same$/,
    );
  });

  it('refuses DER with bytes after the certificate, in each form of the header', async () => {
    const good = derOf(await issueRefused({ issuer: ecCa }));
    for (const extra of [Buffer.from([0]), Buffer.from('trailing bytes')]) {
      const der = Buffer.concat([good, extra]);
      const reason = new RegExp(
        `^has ${extra.length} bytes? after the end of its DER encoding; a certificate is exactly one DER SEQUENCE`,
      );
      refuses(der, reason);
      const pemText = pem(der);
      for (const header of [
        der.toString('base64'),
        pemText.replace(/\n/g, ' '),
        Buffer.from(pemText).toString('base64'),
      ]) {
        refuses(decodeCertificateHeader(header), reason);
      }
    }
  });

  it('refuses a PSD2 role given by name under an OID that is not the ETSI role OID', async () => {
    const byName = await issueRefused({
      issuer: ecCa,
      roles: [
        { oid: PSP_ROLES.PSP_AI, name: 'PSP_AI' },
        { oid: '1.2.3.4.5', name: 'PSP_PI' },
      ],
    });
    refuses(
      derOf(byName),
      /^names the PSD2 role PSP_PI under OID 1\.2\.3\.4\.5, which is not its ETSI role OID 0\.4\.0\.19495\.1\.2; a role counts only by its OID/,
    );
  });

  it('gives every reason at once, and the certificate name', async () => {
    const key = rsaKey(1024);
    const weak = await issueRefused({
      issuer: ecCa,
      publicKeySpki: key.spki,
      hash: 'SHA-1',
      roles: [{ oid: '1.2.3.4.5', name: 'PSP_PI' }],
      name: 'Weak TPP AS',
    });
    const der = Buffer.concat([derOf(weak), Buffer.from([0, 0])]);
    refuses(
      der,
      /^has 2 bytes after/,
      /^is signed with ecdsa-with-SHA1/,
      /^has a 1024-bit RSA key/,
      /^names the PSD2 role PSP_PI/,
    );
    assert.throws(
      () => parseCertificate(der),
      (error: unknown) => error instanceof CertificateRefusedError && error.certificateName === 'Weak TPP AS',
    );
  });

  it('refuses a CA certificate with a 1024-bit key or a SHA-1 signature, so no trust store holds one', async () => {
    const [weakKey, sha1] = await Promise.all([
      refusedAuthority({ rsaBits: 1024 }),
      refusedAuthority({ hash: 'SHA-1' }),
    ]);
    refuses(derOf(weakKey), /^has a 1024-bit RSA key/);
    refuses(derOf(sha1), /^is signed with ecdsa-with-SHA1/);
  });
});
