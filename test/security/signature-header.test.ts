import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignatureHeaderError, parseKeyId, parseSignatureHeader } from '../../src/security/signature-header.js';
import { SIGNED_HEADERS_MAX_COUNT, SIGNATURE_TEXT_CACHED_MAX_LENGTH } from '../../src/domain/limits.js';

const CN = '2.5.4.3';
const C = '2.5.4.6';
const O = '2.5.4.10';

/** 256 bytes 0..255: not text, so a wrapping of the raw bytes cannot be mistaken for base64. */
const SIGNATURE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const SIGNATURE_B64 = SIGNATURE.toString('base64');
const KEY_ID = 'SN=AB12CD34EF56,CA=CN=Test PSD2 CA,O=Test Bank\\, Trust & Co,C=NO';
const HEADERS = '(request-target) date digest x-request-id';
const HEADER = `keyId="${KEY_ID}",algorithm="rsa-sha256",headers="${HEADERS}",signature="${SIGNATURE_B64}"`;

function throwsHeaderError(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (error: unknown) => error instanceof SignatureHeaderError && pattern.test(error.message));
}

describe('parseSignatureHeader', () => {
  it('reads keyId, algorithm, headers and signature of a normal header', () => {
    const parsed = parseSignatureHeader(HEADER);
    assert.equal(parsed.keyId.text, KEY_ID);
    assert.equal(parsed.keyId.serial, 0xab12cd34ef56n);
    assert.deepEqual(parsed.keyId.issuer, [
      { oid: CN, value: 'Test PSD2 CA' },
      { oid: O, value: 'Test Bank, Trust & Co' },
      { oid: C, value: 'NO' },
    ]);
    assert.equal(parsed.algorithm, 'rsa-sha256');
    assert.deepEqual(parsed.headers, ['(request-target)', 'date', 'digest', 'x-request-id']);
    assert.deepEqual(parsed.signature, SIGNATURE);
  });

  it('reads parameters in any order, with whitespace around names, = and commas', () => {
    const parsed = parseSignatureHeader(
      ` signature = "${SIGNATURE_B64}" , headers="date" ,algorithm= "rsa-sha256",  keyId ="${KEY_ID}" `,
    );
    assert.equal(parsed.keyId.text, KEY_ID);
    assert.deepEqual(parsed.headers, ['date']);
    assert.deepEqual(parsed.signature, SIGNATURE);
  });

  it('reads parameter names in any case and lower-cases the algorithm', () => {
    const parsed = parseSignatureHeader(
      `KEYID="${KEY_ID}",Algorithm="RSA-SHA256",HeAdErS="date",SIGNATURE="${SIGNATURE_B64}"`,
    );
    assert.equal(parsed.keyId.serial, 0xab12cd34ef56n);
    assert.equal(parsed.algorithm, 'rsa-sha256');
    assert.deepEqual(parsed.headers, ['date']);
    assert.deepEqual(parsed.signature, SIGNATURE);
  });

  it('reads unquoted algorithm and headers values', () => {
    const parsed = parseSignatureHeader(
      `keyId="${KEY_ID}",algorithm=rsa-sha256,headers=date,signature="${SIGNATURE_B64}"`,
    );
    assert.equal(parsed.algorithm, 'rsa-sha256');
    assert.deepEqual(parsed.headers, ['date']);
  });

  it('lower-cases the signed header names and splits them on any whitespace', () => {
    const parsed = parseSignatureHeader(
      HEADER.replace(HEADERS, ' (Request-Target)  Date\tDigest X-Request-ID  TPP-Redirect-URI '),
    );
    assert.deepEqual(parsed.headers, ['(request-target)', 'date', 'digest', 'x-request-id', 'tpp-redirect-uri']);
  });

  it('takes date as the only signed header when headers is missing', () => {
    const parsed = parseSignatureHeader(`keyId="${KEY_ID}",algorithm="rsa-sha256",signature="${SIGNATURE_B64}"`);
    assert.deepEqual(parsed.headers, ['date']);
  });

  it('ignores parameters it does not use', () => {
    const parsed = parseSignatureHeader(`${HEADER},created=1700000000,expires="1700000300"`);
    assert.deepEqual(parsed.signature, SIGNATURE);
  });

  for (const name of ['keyId', 'algorithm', 'signature'] as const) {
    it(`throws a SignatureHeaderError naming ${name} when it is missing`, () => {
      const parameters: Record<string, string> = {
        keyId: KEY_ID,
        algorithm: 'rsa-sha256',
        headers: HEADERS,
        signature: SIGNATURE_B64,
      };
      delete parameters[name];
      const header = Object.entries(parameters)
        .map(([key, value]) => `${key}="${value}"`)
        .join(',');
      throwsHeaderError(() => parseSignatureHeader(header), new RegExp(`parameter '${name}' is missing`));
    });

    it(`throws a SignatureHeaderError naming ${name} when it is empty`, () => {
      const header = HEADER.replace(new RegExp(`${name}="[^"]*"`), `${name}=""`);
      throwsHeaderError(() => parseSignatureHeader(header), new RegExp(`parameter '${name}' is missing`));
    });
  }

  it('throws a SignatureHeaderError for a parameter given twice, whatever its case', () => {
    throwsHeaderError(
      () => parseSignatureHeader(`${HEADER},algorithm="hs2019"`),
      /parameter 'algorithm' is given twice/,
    );
    throwsHeaderError(() => parseSignatureHeader(`${HEADER},KeyID="${KEY_ID}"`), /parameter 'keyid' is given twice/);
  });

  it('reads the quoted form by its quotes as the pattern reads any other form', () => {
    const other = [`keyId="SN=1F,CA=CN=Other CA,C=NO"`, `algorithm="rsa-sha256"`, `headers="date digest"`];
    for (const parts of [
      [`keyId="${KEY_ID}"`, `algorithm="rsa-sha256"`, `headers="${HEADERS}"`, `signature="${SIGNATURE_B64}"`],
      [...other, `signature="${SIGNATURE_B64}"`],
      [...other, `signature="${SIGNATURE_B64}" `, ` created="1700000000"  `],
    ]) {
      // A tab before each name is outside the quoted form: those headers are read by the pattern.
      assert.deepEqual(parseSignatureHeader(parts.join(',')), parseSignatureHeader(`\t${parts.join(',\t')}`));
    }
    assert.deepEqual(parseSignatureHeader(`${HEADER},`), parseSignatureHeader(HEADER));
    for (const bad of [`${HEADER},,`, `${HEADER}, `, `${HEADER},9a="b"`]) {
      throwsHeaderError(() => parseSignatureHeader(bad), /cannot read a name="value" parameter/);
    }
  });

  it('shares one frozen list of signed headers between requests that sign the same headers', () => {
    const first = parseSignatureHeader(HEADER).headers;
    assert.equal(parseSignatureHeader(HEADER.replace(SIGNATURE_B64, 'AAAA')).headers, first);
    assert.equal(Object.isFrozen(first), true);
  });

  it('keeps no list longer than SIGNATURE_TEXT_CACHED_MAX_LENGTH: a longer one is read again each time', () => {
    const names = Array.from({ length: SIGNED_HEADERS_MAX_COUNT }, (_, i) => `x-${'n'.repeat(60)}-${i}`).join(' ');
    assert.ok(names.length > SIGNATURE_TEXT_CACHED_MAX_LENGTH);
    const header = HEADER.replace(HEADERS, names);
    const first = parseSignatureHeader(header).headers;
    assert.deepEqual(first, names.split(' '));
    assert.notEqual(parseSignatureHeader(header).headers, first);
  });

  it('keeps a keyId up to SIGNATURE_TEXT_CACHED_MAX_LENGTH, and reads a longer one again each time', () => {
    assert.equal(parseKeyId(KEY_ID), parseKeyId(KEY_ID));
    const long = `SN=1F,CA=CN=${'n'.repeat(SIGNATURE_TEXT_CACHED_MAX_LENGTH)},C=NO`;
    const first = parseKeyId(long);
    assert.equal(first.serial, 0x1fn);
    assert.notEqual(parseKeyId(long), first);
    assert.deepEqual(parseKeyId(long), first);
  });

  it('throws a SignatureHeaderError for an empty headers parameter', () => {
    throwsHeaderError(
      () => parseSignatureHeader(HEADER.replace(`headers="${HEADERS}"`, 'headers="  "')),
      /parameter 'headers' is empty/,
    );
  });

  it('accepts 20 signed headers', () => {
    const names = Array.from({ length: 20 }, (_, i) => `x-h${i}`);
    assert.deepEqual(parseSignatureHeader(HEADER.replace(HEADERS, names.join(' '))).headers, names);
  });

  it('throws a SignatureHeaderError for more than 20 signed headers', () => {
    const names = Array.from({ length: 21 }, (_, i) => `x-h${i}`).join(' ');
    throwsHeaderError(() => parseSignatureHeader(HEADER.replace(HEADERS, names)), /names 21 headers; at most 20/);
  });

  it('throws a SignatureHeaderError for text that is not name="value" parameters', () => {
    throwsHeaderError(() => parseSignatureHeader(`${HEADER},"stray"`), /cannot read a name="value" parameter/);
    throwsHeaderError(
      () => parseSignatureHeader('not a signature header'),
      /cannot read a name="value" parameter at position 0/,
    );
  });

  it('throws a SignatureHeaderError for a signature that is not base64', () => {
    throwsHeaderError(
      () => parseSignatureHeader(HEADER.replace(SIGNATURE_B64, 'not*base64')),
      /signature is not base64/,
    );
  });

  it('takes the base64 its pattern takes, written canonically or not, and nothing more (issue 44)', () => {
    const signatureOf = (text: string) => parseSignatureHeader(HEADER.replace(SIGNATURE_B64, text)).signature;
    assert.match(SIGNATURE_B64, /=$/, 'the canonical signature ends in padding');
    assert.deepEqual(signatureOf(SIGNATURE_B64.replace(/=+$/, '')), SIGNATURE, 'without its padding');
    assert.deepEqual(signatureOf('QR=='), Buffer.from([0x41]), 'with bits left over in its last character');
    for (const text of ['QQ===', '=QQ', 'QQ==QQ==', 'QQ-_']) {
      throwsHeaderError(() => parseSignatureHeader(HEADER.replace(SIGNATURE_B64, text)), /signature is not base64/);
    }
  });

  it('reads a signature value folded with whitespace', () => {
    const folded = SIGNATURE_B64.match(/.{1,64}/g)!.join(' ');
    assert.deepEqual(parseSignatureHeader(HEADER.replace(SIGNATURE_B64, folded)).signature, SIGNATURE);
  });

  it('reads a whole header sent as one RFC 2047 B-encoded word', () => {
    const encoded = `=?utf-8?B?${Buffer.from(HEADER, 'utf8').toString('base64')}?=`;
    assert.deepEqual(parseSignatureHeader(encoded), parseSignatureHeader(HEADER));
  });

  it('reads a whole header sent as several encoded words, with a non-ASCII issuer name', () => {
    const header = HEADER.replace('Test Bank', 'Blåbær Bank');
    const half = Math.floor(header.length / 2);
    const encoded = [header.slice(0, half), header.slice(half)]
      .map((part) => `=?UTF-8?b?${Buffer.from(part, 'utf8').toString('base64')}?=`)
      .join(' ');
    const parsed = parseSignatureHeader(encoded);
    assert.deepEqual(parsed.keyId.issuer[1], { oid: O, value: 'Blåbær Bank, Trust & Co' });
    assert.deepEqual(parsed.signature, SIGNATURE);
  });

  it('throws a SignatureHeaderError when the encoded header cannot be decoded', () => {
    throwsHeaderError(
      () => parseSignatureHeader('=?koi8-r?B?YWJj?='),
      /RFC 2047 encoded word cannot be decoded: charset 'koi8-r'/,
    );
  });

  it('reads a signature value wrapped as an encoded word of the signature bytes', () => {
    const parsed = parseSignatureHeader(HEADER.replace(`"${SIGNATURE_B64}"`, `"=?utf-8?B?${SIGNATURE_B64}?="`));
    assert.deepEqual(parsed.signature, SIGNATURE);
  });

  it('reads a signature value wrapped as an encoded word of the base64 text', () => {
    const wrapped = `=?utf-8?B?${Buffer.from(SIGNATURE_B64, 'latin1').toString('base64')}?=`;
    assert.deepEqual(parseSignatureHeader(HEADER.replace(SIGNATURE_B64, wrapped)).signature, SIGNATURE);
  });

  it('throws a SignatureHeaderError for a signature encoded word that is not base64', () => {
    throwsHeaderError(
      () => parseSignatureHeader(HEADER.replace(SIGNATURE_B64, '=?utf-8?B?ab*cd?=')),
      /RFC 2047 encoded word cannot be decoded/,
    );
  });

  it('reads a keyId wrapped as an encoded word', () => {
    const parsed = parseSignatureHeader(
      HEADER.replace(KEY_ID, `=?utf-8?B?${Buffer.from(KEY_ID, 'utf8').toString('base64')}?=`),
    );
    assert.equal(parsed.keyId.text, KEY_ID);
    assert.equal(parsed.keyId.issuer.length, 3);
  });

  it('unescapes \\" inside the quoted keyId and keeps the other backslash escapes for the DN', () => {
    const parsed = parseSignatureHeader(HEADER.replace(KEY_ID, 'SN=1,CA=CN=The \\"Best\\" CA,O=A\\, B\\+C,C=NO'));
    assert.equal(parsed.keyId.text, 'SN=1,CA=CN=The "Best" CA,O=A\\, B\\+C,C=NO');
    assert.deepEqual(parsed.keyId.issuer, [
      { oid: CN, value: 'The "Best" CA' },
      { oid: O, value: 'A, B+C' },
      { oid: C, value: 'NO' },
    ]);
  });

  it('throws a SignatureHeaderError for a keyId that is not SN=...,CA=...', () => {
    throwsHeaderError(
      () => parseSignatureHeader(HEADER.replace(KEY_ID, 'CN=Test PSD2 CA')),
      /keyId 'CN=Test PSD2 CA' is not of the form SN=/,
    );
  });
});

describe('parseKeyId', () => {
  it('reads the same serial from plain, 0x-prefixed, colon-separated, upper- and lower-case hex', () => {
    for (const serial of [
      'AB12CD34EF56',
      'ab12cd34ef56',
      '0xab12cd34ef56',
      '0xAB12CD34EF56',
      'AB:12:CD:34:EF:56',
      '00:ab:12:cd:34:ef:56',
      '00AB12CD34EF56',
    ]) {
      assert.equal(parseKeyId(`SN=${serial},CA=CN=X`).serial, 0xab12cd34ef56n, serial);
    }
  });

  it('reads a serial longer than 64 bits exactly', () => {
    assert.equal(parseKeyId('SN=7f0102030405060708090a0b0c0d0e0f,CA=CN=X').serial, 0x7f0102030405060708090a0b0c0d0e0fn);
  });

  it('accepts whitespace around SN, CA and the comma between them', () => {
    const keyId = parseKeyId(' SN = 1f , CA=CN=X');
    assert.equal(keyId.serial, 0x1fn);
    assert.deepEqual(keyId.issuer, [{ oid: CN, value: 'X' }]);
  });

  it('reads an issuer DN whose escaped comma stays inside one attribute', () => {
    const keyId = parseKeyId('SN=1,CA=CN=X,O=A\\, B,C=NO');
    assert.deepEqual(keyId.issuer, [
      { oid: CN, value: 'X' },
      { oid: O, value: 'A, B' },
      { oid: C, value: 'NO' },
    ]);
  });

  it('keeps the text it was given', () => {
    assert.equal(parseKeyId('SN=1,CA=CN=X').text, 'SN=1,CA=CN=X');
  });

  it('reads a keyId sent as an encoded word', () => {
    const keyId = parseKeyId(`=?utf-8?Q?SN=3D0a,CA=3DCN=3DBl=C3=A5_CA?=`);
    assert.equal(keyId.serial, 10n);
    assert.deepEqual(keyId.issuer, [{ oid: CN, value: 'Blå CA' }]);
  });

  for (const text of [
    'CN=X',
    'CA=CN=X,SN=1',
    'SN=1',
    'SN=1,CN=X',
    'SN=xyz,CA=CN=X',
    'SN=0x,CA=CN=X',
    'SN=,CA=CN=X',
    'serial=1,CA=CN=X',
  ]) {
    it(`throws a SignatureHeaderError for the keyId '${text}', which is not SN=<hex>,CA=<DN>`, () => {
      throwsHeaderError(
        () => parseKeyId(text),
        /is not of the form SN=<certificate serial in hex>,CA=<issuer distinguished name>/,
      );
    });
  }

  it('throws a SignatureHeaderError for a serial of colons only', () => {
    throwsHeaderError(() => parseKeyId('SN=::,CA=CN=X'), /has an empty serial number/);
  });

  it('throws a SignatureHeaderError explaining a CA that is not a distinguished name', () => {
    throwsHeaderError(
      () => parseKeyId('SN=1,CA=Test CA'),
      /keyId CA 'Test CA' is not a distinguished name: 'Test CA' is not of the form TYPE=value/,
    );
    throwsHeaderError(() => parseKeyId('SN=1,CA=FOO=bar'), /not a distinguished name: unknown attribute type 'FOO'/);
  });
});
