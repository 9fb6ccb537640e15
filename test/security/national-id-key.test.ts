import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { hashNationalId } from '../../src/domain/psu.js';
import {
  NATIONAL_ID_KEY_FILE,
  NationalIdKeyError,
  ensureNationalIdKey,
  nationalIdKeyFingerprint,
} from '../../src/security/national-id-key.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-nin-key-'));
  dirs.push(dir);
  return dir;
};
const FNR = '13039319955';

describe('the installation key for national identity numbers', () => {
  it('is made on the first start in the data folder, readable by the owner only, and read back by every later start', async () => {
    const dir = join(newDir(), 'data');
    const key = await ensureNationalIdKey(dir, undefined);
    assert.equal(key.bytes.length, 32);
    assert.equal(statSync(join(dir, NATIONAL_ID_KEY_FILE)).mode & 0o777, 0o600);
    const again = await ensureNationalIdKey(dir, undefined);
    assert.equal(hashNationalId(again, FNR), hashNationalId(key, FNR));
  });

  it('made by several starts on one empty folder at once: all hash with the one key published, and no temporary file is left', async () => {
    const dir = newDir();
    const keys = await Promise.all([1, 2, 3, 4].map(() => ensureNationalIdKey(dir, undefined)));
    assert.equal(new Set(keys.map((key) => hashNationalId(key, FNR))).size, 1);
    assert.deepEqual(readdirSync(dir), [NATIONAL_ID_KEY_FILE]);
  });

  it('differs between installations', async () => {
    assert.notEqual(
      hashNationalId(await ensureNationalIdKey(newDir(), undefined), FNR),
      hashNationalId(await ensureNationalIdKey(newDir(), undefined), FNR),
    );
  });

  it('is read from PSU_IDENTITY_KEY_FILE when it is set, so that instances on one database share it; nothing is written to the data folder', async () => {
    const dir = newDir();
    const file = join(dir, 'shared.key');
    writeFileSync(file, `${'ab'.repeat(32)}\n`);
    const key = await ensureNationalIdKey(join(dir, 'data'), file);
    assert.deepEqual(Buffer.from(key.bytes), Buffer.from('ab'.repeat(32), 'hex'));
    assert.deepEqual(readdirSync(dir), ['shared.key']);
  });

  it('refuses a configured file that is missing, not hex, or shorter than 32 bytes, saying which and why', async () => {
    const dir = newDir();
    await assert.rejects(
      ensureNationalIdKey(dir, join(dir, 'missing.key')),
      (error: Error) => error instanceof NationalIdKeyError && /missing\.key cannot be read/.test(error.message),
    );
    for (const [name, text] of [
      ['short.key', 'ab'.repeat(31)],
      ['text.key', 'not a key at all, not hex at all, not a key at all, not hex at all!'],
    ]) {
      writeFileSync(join(dir, name!), text!);
      await assert.rejects(
        ensureNationalIdKey(dir, join(dir, name!)),
        (error: Error) => error instanceof NationalIdKeyError && /at least 64 hex digits/.test(error.message),
      );
    }
  });

  it('has a fingerprint the database can keep that is neither the key nor a hash of a number', async () => {
    const key = await ensureNationalIdKey(newDir(), undefined);
    const fingerprint = nationalIdKeyFingerprint(key);
    assert.match(fingerprint, /^[0-9a-f]{64}$/);
    assert.ok(!fingerprint.includes(Buffer.from(key.bytes).toString('hex')));
    assert.equal(nationalIdKeyFingerprint({ bytes: Buffer.from(key.bytes) }), fingerprint);
    assert.notEqual(nationalIdKeyFingerprint(await ensureNationalIdKey(newDir(), undefined)), fingerprint);
  });
});
