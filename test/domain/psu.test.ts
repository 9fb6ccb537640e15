import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { idnr, tnr } from '@navikt/fnrvalidator';
import {
  type NationalIdKey,
  type PsuHeaders,
  hashNationalId as hashWith,
  identifyPsu as identifyWith,
  psuHeaderProblems,
} from '../../src/domain/psu.js';

/** One installation's key for these tests; another installation has another. */
const KEY: NationalIdKey = { bytes: randomBytes(32) };
const OTHER_KEY: NationalIdKey = { bytes: randomBytes(32) };
const hashNationalId = (nationalId: string) => hashWith(KEY, nationalId);
const identifyPsu = (h: PsuHeaders) => identifyWith(h, KEY);

const PSU_ID = '3FA85F64-5717-4562-B3FC-2C963F66AFA6';
const FNR = '13039319955';
const D_NUMBER = '41018036736';
/** The FNR above as a synthetic Tenor number: month 03 + 80 = 83, check digits recomputed. */
const TENOR = '13839319910';
/** The same as an H-number (month + 40): valid, but not a national identity number. */
const H_NUMBER = '13439319938';

function headers(partial: Partial<PsuHeaders>): PsuHeaders {
  return { psuId: undefined, nationalId: undefined, corporateId: undefined, context: undefined, ...partial };
}

function codesAndPaths(result: ReturnType<typeof identifyPsu>): [string, string | undefined][] {
  return result.problems.map((problem) => [problem.code, problem.path]);
}

describe('identifyPsu', () => {
  it('accepts PSU-ID alone and keys the PSU by the lower-cased PSU-ID', () => {
    const { psu, problems } = identifyPsu(headers({ psuId: PSU_ID }));
    assert.deepEqual(problems, []);
    assert.equal(psu?.psuId, PSU_ID.toLowerCase());
    assert.equal(psu?.key, `psu:${PSU_ID.toLowerCase()}`);
    assert.equal(psu?.nationalIdHash, undefined);
  });

  it("keys the PSU by the hash the caller made already (the SCA context's), and still checks the number itself", () => {
    const made = hashNationalId(FNR);
    assert.equal(identifyPsu(headers({ nationalId: FNR, nationalIdHash: made })).psu?.key, `nin:${made}`);
    const refused = identifyPsu(headers({ nationalId: H_NUMBER, nationalIdHash: hashNationalId(H_NUMBER) }));
    assert.equal(refused.psu, undefined);
    assert.deepEqual(codesAndPaths(refused), [['FORMAT_ERROR', 'header:X-PSU-IDENTITY']]);
  });

  it('gives the same key to the same PSU-ID in any case', () => {
    const upper = identifyPsu(headers({ psuId: PSU_ID })).psu;
    const lower = identifyPsu(headers({ psuId: PSU_ID.toLowerCase() })).psu;
    assert.equal(upper?.key, lower?.key);
  });

  it('accepts X-PSU-IDENTITY alone with a valid national identity number (fnr)', () => {
    assert.equal(idnr(FNR).status, 'valid');
    const { psu, problems } = identifyPsu(headers({ nationalId: FNR }));
    assert.deepEqual(problems, []);
    assert.equal(psu?.psuId, undefined);
    assert.equal(psu?.nationalIdHash, hashNationalId(FNR));
    assert.equal(psu?.key, `nin:${hashNationalId(FNR)}`);
  });

  it('accepts a D-number', () => {
    const { psu, problems } = identifyPsu(headers({ nationalId: D_NUMBER }));
    assert.deepEqual(problems, []);
    assert.equal(psu?.nationalIdHash, hashNationalId(D_NUMBER));
  });

  it('accepts a synthetic Tenor number (month + 80)', () => {
    assert.deepEqual(tnr(TENOR), { status: 'valid', type: 'tnr' });
    const { psu, problems } = identifyPsu(headers({ nationalId: TENOR }));
    assert.deepEqual(problems, []);
    assert.equal(psu?.key, `nin:${hashNationalId(TENOR)}`);
  });

  it('does not keep the national identity number in plain text anywhere in the result', () => {
    for (const nationalId of [FNR, D_NUMBER, TENOR]) {
      const result = identifyPsu(headers({ nationalId }));
      assert.ok(result.psu !== undefined);
      assert.ok(!JSON.stringify(result).includes(nationalId), nationalId);
    }
  });

  it('keys different national identity numbers differently', () => {
    const keys = new Set([FNR, D_NUMBER, TENOR].map((nationalId) => identifyPsu(headers({ nationalId })).psu?.key));
    assert.equal(keys.size, 3);
  });

  it('prefers PSU-ID for the key when both headers are given', () => {
    const { psu, problems } = identifyPsu(headers({ psuId: PSU_ID, nationalId: FNR }));
    assert.deepEqual(problems, []);
    assert.equal(psu?.key, `psu:${PSU_ID.toLowerCase()}`);
    assert.equal(psu?.nationalIdHash, hashNationalId(FNR));
  });

  it('requires PSU-ID when neither PSU-ID nor X-PSU-IDENTITY is given', () => {
    const result = identifyPsu(headers({}));
    assert.equal(result.psu, undefined);
    assert.deepEqual(codesAndPaths(result), [['HTTP_HEADER_REQUIRED', 'header:PSU-ID']]);
  });

  it('refuses an X-PSU-IDENTITY that is not a valid national identity number with FORMAT_ERROR', () => {
    for (const nationalId of ['13039319956', '1303931995', '31029319955', 'abcdefghijk', '']) {
      const result = identifyPsu(headers({ nationalId }));
      assert.equal(result.psu, undefined, nationalId);
      assert.deepEqual(codesAndPaths(result), [['FORMAT_ERROR', 'header:X-PSU-IDENTITY']], nationalId);
    }
  });

  it('refuses an H-number, which is valid but not a national identity number', () => {
    assert.deepEqual(idnr(H_NUMBER), { status: 'valid', type: 'hnr' });
    const result = identifyPsu(headers({ nationalId: H_NUMBER }));
    assert.deepEqual(codesAndPaths(result), [['FORMAT_ERROR', 'header:X-PSU-IDENTITY']]);
    assert.match(result.problems[0]!.text, /hnr/);
  });

  it('does not repeat the refused national identity number in the problem', () => {
    const result = identifyPsu(headers({ nationalId: '13039319956' }));
    assert.ok(!JSON.stringify(result).includes('13039319956'));
  });

  it('requires PSU-Corporate-ID for PSU-Context CORPORATE', () => {
    const result = identifyPsu(headers({ psuId: PSU_ID, context: 'CORPORATE' }));
    assert.equal(result.psu, undefined);
    assert.deepEqual(codesAndPaths(result), [['HTTP_HEADER_REQUIRED', 'header:PSU-Corporate-ID']]);
  });

  it('accepts PSU-Context CORPORATE with PSU-Corporate-ID and keeps both', () => {
    const { psu, problems } = identifyPsu(headers({ psuId: PSU_ID, context: 'CORPORATE', corporateId: 'AGR-1' }));
    assert.deepEqual(problems, []);
    assert.equal(psu?.context, 'CORPORATE');
    assert.equal(psu?.corporateId, 'AGR-1');
  });

  it('does not require PSU-Corporate-ID for PSU-Context PRIVATE', () => {
    const { psu, problems } = identifyPsu(headers({ psuId: PSU_ID, context: 'PRIVATE' }));
    assert.deepEqual(problems, []);
    assert.equal(psu?.context, 'PRIVATE');
  });

  it('reports several problems together', () => {
    assert.deepEqual(codesAndPaths(identifyPsu(headers({ context: 'CORPORATE' }))), [
      ['HTTP_HEADER_REQUIRED', 'header:PSU-ID'],
      ['HTTP_HEADER_REQUIRED', 'header:PSU-Corporate-ID'],
    ]);
    assert.deepEqual(codesAndPaths(identifyPsu(headers({ nationalId: '13039319956', context: 'CORPORATE' }))), [
      ['FORMAT_ERROR', 'header:X-PSU-IDENTITY'],
      ['HTTP_HEADER_REQUIRED', 'header:PSU-Corporate-ID'],
    ]);
  });
});

describe('hashNationalId', () => {
  it('is a hex digest, the same for the same number and key and different for another number', () => {
    assert.match(hashNationalId(FNR), /^[0-9a-f]{64}$/);
    assert.equal(hashNationalId(FNR), hashNationalId(FNR));
    assert.notEqual(hashNationalId(FNR), hashNationalId(D_NUMBER));
  });

  it('does not contain the number', () => {
    assert.ok(!hashNationalId(FNR).includes(FNR));
  });

  it('cannot be reversed by hashing every number without the key: it is not SHA-256 with a fixed prefix, and another key gives another hash', () => {
    // What anyone could compute for each candidate number: the plain digests the store held before.
    for (const guess of [FNR, `psd2-psu:${FNR}`])
      assert.notEqual(hashNationalId(FNR), createHash('sha256').update(guess).digest('hex'));
    assert.notEqual(hashNationalId(FNR), hashWith(OTHER_KEY, FNR));
    assert.equal(
      hashNationalId(FNR),
      hashWith({ bytes: Buffer.from(KEY.bytes) }, FNR),
      'the key, not the object, decides',
    );
  });

  it('refuses a key shorter than 32 bytes', () => {
    assert.throws(() => hashWith({ bytes: randomBytes(16) }, FNR), /at least 32/);
  });
});

describe('psuHeaderProblems: the PSU headers of every operation', () => {
  const paths = (h: Partial<PsuHeaders>, identityRequired: boolean) =>
    psuHeaderProblems(headers(h), { identityRequired }).map((p) => [p.code, p.path]);

  it('asks for PSU-ID or X-PSU-IDENTITY only where the operation must know the PSU before its SCA', () => {
    assert.deepEqual(paths({}, true), [['HTTP_HEADER_REQUIRED', 'header:PSU-ID']]);
    assert.deepEqual(paths({}, false), []);
  });

  it('holds PSU-Context and PSU-Corporate-ID to each other, and X-PSU-IDENTITY to a national identity number, in either case', () => {
    for (const identityRequired of [true, false]) {
      assert.deepEqual(paths({ psuId: PSU_ID, context: 'CORPORATE' }, identityRequired), [
        ['HTTP_HEADER_REQUIRED', 'header:PSU-Corporate-ID'],
      ]);
      assert.deepEqual(paths({ psuId: PSU_ID, context: 'PRIVATE', corporateId: 'CORP-1' }, identityRequired), [
        ['FORMAT_ERROR', 'header:PSU-Corporate-ID'],
      ]);
      assert.deepEqual(paths({ nationalId: H_NUMBER }, identityRequired), [['FORMAT_ERROR', 'header:X-PSU-IDENTITY']]);
      assert.deepEqual(paths({ psuId: PSU_ID, context: 'CORPORATE', corporateId: 'CORP-1' }, identityRequired), []);
    }
  });
});
