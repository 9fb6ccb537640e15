import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { DigestFormatError, digestHeaderOf, findDigestMismatch, parseDigestHeader } from '../../src/security/digest.js';

const BODY = Buffer.from('{"instructedAmount":{"amount":"100.00","currency":"NOK"}}', 'utf8');
const hash = (algorithm: 'sha256' | 'sha512', body: Uint8Array = BODY) => createHash(algorithm).update(body).digest();
const SHA256 = hash('sha256');
const SHA512 = hash('sha512');

function throwsDigestError(header: string, pattern: RegExp): void {
  assert.throws(
    () => parseDigestHeader(header),
    (error: unknown) => error instanceof DigestFormatError && pattern.test(error.message),
    header,
  );
}

describe('parseDigestHeader', () => {
  it('reads a SHA-256 digest', () => {
    assert.deepEqual(parseDigestHeader(`SHA-256=${SHA256.toString('base64')}`), [
      { algorithm: 'SHA-256', expected: SHA256 },
    ]);
  });

  it('reads a SHA-512 digest', () => {
    assert.deepEqual(parseDigestHeader(`SHA-512=${SHA512.toString('base64')}`), [
      { algorithm: 'SHA-512', expected: SHA512 },
    ]);
  });

  it('reads algorithm names in any case', () => {
    assert.deepEqual(parseDigestHeader(`sha-256=${SHA256.toString('base64')}`), [
      { algorithm: 'SHA-256', expected: SHA256 },
    ]);
    assert.deepEqual(parseDigestHeader(`Sha-512=${SHA512.toString('base64')}`), [
      { algorithm: 'SHA-512', expected: SHA512 },
    ]);
  });

  it('reads several comma-separated digests and ignores one in an unknown algorithm', () => {
    const header = `MD5=rL0Y20zC+Fzt72VPzMSk2A==, SHA-256=${SHA256.toString('base64')} ,SHA-512=${SHA512.toString('base64')}`;
    assert.deepEqual(parseDigestHeader(header), [
      { algorithm: 'SHA-256', expected: SHA256 },
      { algorithm: 'SHA-512', expected: SHA512 },
    ]);
  });

  it('throws a DigestFormatError naming the algorithms when none is supported', () => {
    throwsDigestError('MD5=rL0Y20zC+Fzt72VPzMSk2A==', /algorithm MD5 is not supported/);
    throwsDigestError('md5=rL0Y20zC+Fzt72VPzMSk2A==, UNIXsum=30637', /MD5, UNIXSUM/);
  });

  it('throws a DigestFormatError when the hash has the wrong length for its algorithm', () => {
    throwsDigestError(`SHA-256=${SHA512.toString('base64')}`, /SHA-256 value is not the base64 of a 32-byte hash/);
    throwsDigestError(`SHA-512=${SHA256.toString('base64')}`, /SHA-512 value is not the base64 of a 64-byte hash/);
  });

  it('throws a DigestFormatError when the value is not base64', () => {
    const base64 = SHA256.toString('base64');
    // Node's decoder skips the stray character and still yields 32 bytes; the header is refused anyway.
    assert.equal(Buffer.from(`${base64.slice(0, 10)}!${base64.slice(10)}`, 'base64').length, 32);
    throwsDigestError(`SHA-256=${base64.slice(0, 10)}!${base64.slice(10)}`, /SHA-256 value is not the base64/);
    throwsDigestError(`SHA-256=${SHA256.toString('hex')}`, /SHA-256 value is not the base64/);
    throwsDigestError('SHA-256=', /SHA-256 value is not the base64/);
  });

  it('throws a DigestFormatError when a digest has no =', () => {
    throwsDigestError('SHA-256', /'SHA-256' is not of the form SHA-256=/);
    throwsDigestError(`SHA-256=${SHA256.toString('base64')}, SHA-512`, /'SHA-512' is not of the form/);
    throwsDigestError('', /is not of the form/);
  });

  it('throws a DigestFormatError when the algorithm name is empty', () => {
    throwsDigestError(`=${SHA256.toString('base64')}`, /is not of the form/);
  });
});

describe('findDigestMismatch', () => {
  it('returns undefined when every digest matches the body', () => {
    const values = parseDigestHeader(`SHA-256=${SHA256.toString('base64')},SHA-512=${SHA512.toString('base64')}`);
    assert.equal(findDigestMismatch(values, BODY), undefined);
  });

  it('returns the algorithm whose digest does not match the body', () => {
    const other = Buffer.from('{"instructedAmount":{"amount":"900.00","currency":"NOK"}}', 'utf8');
    assert.equal(findDigestMismatch(parseDigestHeader(`SHA-256=${SHA256.toString('base64')}`), other), 'SHA-256');
    assert.equal(findDigestMismatch(parseDigestHeader(`SHA-512=${SHA512.toString('base64')}`), other), 'SHA-512');
  });

  it('returns the mismatching algorithm when another digest in the header matches', () => {
    const values = parseDigestHeader(
      `SHA-256=${SHA256.toString('base64')},SHA-512=${hash('sha512', Buffer.from('x')).toString('base64')}`,
    );
    assert.equal(findDigestMismatch(values, BODY), 'SHA-512');
  });

  it('checks the empty body against the digest of the empty body', () => {
    const empty = new Uint8Array(0);
    assert.equal(
      findDigestMismatch(parseDigestHeader(`SHA-256=${hash('sha256', empty).toString('base64')}`), empty),
      undefined,
    );
    assert.equal(findDigestMismatch(parseDigestHeader(`SHA-256=${SHA256.toString('base64')}`), empty), 'SHA-256');
    assert.equal(
      findDigestMismatch(parseDigestHeader(`SHA-256=${hash('sha256', empty).toString('base64')}`), BODY),
      'SHA-256',
    );
  });
});

describe('digestHeaderOf', () => {
  it('writes SHA-256 by default, as base64 of the hash', () => {
    assert.equal(digestHeaderOf(BODY), `SHA-256=${SHA256.toString('base64')}`);
  });

  for (const algorithm of ['SHA-256', 'SHA-512'] as const) {
    it(`writes a ${algorithm} header that parses and matches the body it was made from, and only that body`, () => {
      const header = digestHeaderOf(BODY, algorithm);
      assert.ok(header.startsWith(`${algorithm}=`));
      const values = parseDigestHeader(header);
      assert.deepEqual(
        values.map((v) => v.algorithm),
        [algorithm],
      );
      assert.equal(findDigestMismatch(values, BODY), undefined);
      assert.equal(findDigestMismatch(values, Buffer.concat([BODY, Buffer.from(' ')])), algorithm);
    });
  }

  it('writes a header for the empty body that round-trips', () => {
    const empty = new Uint8Array(0);
    assert.equal(findDigestMismatch(parseDigestHeader(digestHeaderOf(empty, 'SHA-512')), empty), undefined);
  });
});
