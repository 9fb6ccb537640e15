import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CORE_SIGNATURE_MAX_SKEW_SECONDS } from '../../src/domain/limits.js';
import {
  CoreKeyError,
  parseCoreKey,
  readCoreKey,
  signCoreRequest,
  verifyCoreSignature,
} from '../../src/core/http/core-signature.js';

const KEY = parseCoreKey('ab'.repeat(32), 'test');
const OTHER = parseCoreKey('cd'.repeat(32), 'test');
const NOW = new Date('2026-11-29T10:00:00Z');
const BODY = '{"paymentId":"p1"}';

describe('Core-Signature', () => {
  const header = signCoreRequest(KEY, 'PUT', '/payments/p1', BODY, NOW);

  it('holds for the request it signed, within the skew', () => {
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.equal(verifyCoreSignature(KEY, header, 'PUT', '/payments/p1', BODY, NOW), undefined);
    const later = new Date(NOW.getTime() + CORE_SIGNATURE_MAX_SKEW_SECONDS * 1000);
    assert.equal(verifyCoreSignature(KEY, header, 'PUT', '/payments/p1', BODY, later), undefined);
  });

  it('refuses a tampered body', () => {
    assert.match(verifyCoreSignature(KEY, header, 'PUT', '/payments/p1', '{"paymentId":"p2"}', NOW)!, /does not match/);
    assert.match(verifyCoreSignature(KEY, header, 'PUT', '/payments/p1', undefined, NOW)!, /does not match/);
  });

  it('refuses another path, query or method', () => {
    assert.match(verifyCoreSignature(KEY, header, 'PUT', '/payments/p2', BODY, NOW)!, /does not match/);
    assert.match(verifyCoreSignature(KEY, header, 'PUT', '/payments/p1?x=1', BODY, NOW)!, /does not match/);
    assert.match(verifyCoreSignature(KEY, header, 'POST', '/payments/p1', BODY, NOW)!, /does not match/);
  });

  it('refuses a stale or future t', () => {
    const stale = new Date(NOW.getTime() + (CORE_SIGNATURE_MAX_SKEW_SECONDS + 1) * 1000);
    assert.match(verifyCoreSignature(KEY, header, 'PUT', '/payments/p1', BODY, stale)!, /at most 300 s/);
    const early = new Date(NOW.getTime() - (CORE_SIGNATURE_MAX_SKEW_SECONDS + 1) * 1000);
    assert.match(verifyCoreSignature(KEY, header, 'PUT', '/payments/p1', BODY, early)!, /at most 300 s/);
  });

  it('refuses another key', () => {
    assert.match(verifyCoreSignature(OTHER, header, 'PUT', '/payments/p1', BODY, NOW)!, /does not match/);
  });

  it('refuses a missing or malformed header', () => {
    assert.match(verifyCoreSignature(KEY, undefined, 'GET', '/x', undefined, NOW)!, /missing/);
    assert.match(verifyCoreSignature(KEY, '', 'GET', '/x', undefined, NOW)!, /missing/);
    assert.match(verifyCoreSignature(KEY, 'v1=00', 'GET', '/x', undefined, NOW)!, /no t=/);
    assert.match(verifyCoreSignature(KEY, 't=1,v1=zz', 'GET', '/x', undefined, NOW)!, /no v1=/);
  });

  it('reads the key from a file of hex, and refuses a short one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'core-key-'));
    await writeFile(join(dir, 'good'), `${'0f'.repeat(32)}\n`);
    await writeFile(join(dir, 'short'), '0f'.repeat(31));
    assert.equal((await readCoreKey(join(dir, 'good'))).bytes.length, 32);
    await assert.rejects(readCoreKey(join(dir, 'short')), CoreKeyError);
    await assert.rejects(readCoreKey(join(dir, 'missing')), CoreKeyError);
  });
});
