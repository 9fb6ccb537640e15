import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator } from 'kysely';
import type { Database } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { LEGACY_NATIONAL_ID_REASON } from '../../src/store/migrations/007-psu-lockout.js';
import { sqliteDialect } from '../../src/store/sqlite/sqlite-dialect.js';
import { StatementCache } from '../../src/store/sqlite/statement-cache.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { insertPaymentAsBefore, newPayment } from '../support/new-payment.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The hash the store kept before migration 007: SHA-256 of a fixed prefix and the number, which anyone can recompute. */
const legacyHash = (nationalId: string) => createHash('sha256').update(`psd2-psu:${nationalId}`).digest('hex');

describe('migration 007: national identity numbers stored the old way', () => {
  it('erases the reversible hashes, rejects a payment still waiting for SCA with a reason, fails an authorisation in progress, and leaves a signed payment signed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-m007-'));
    dirs.push(dir);
    const path = join(dir, 'store.db');
    // A database as the previous version left it: every migration before 007.
    const before = new Kysely<Database>({
      dialect: sqliteDialect(new StatementCache(new BetterSqlite3(path)), undefined).dialect,
    });
    const earlier = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '007'));
    const result = await new Migrator({
      db: before,
      provider: { getMigrations: async () => earlier },
    }).migrateToLatest();
    assert.equal(result.error, undefined);
    const hash = legacyHash('13039319955');
    const psu = {
      psuId: undefined,
      nationalIdHash: hash,
      corporateId: undefined,
      context: 'PRIVATE' as const,
      key: `nin:${hash}`,
    };
    const waiting = newPayment({ psu });
    const signed = newPayment({ psu, psuKey: `nin:${hash}` });
    const authorisation = {
      id: randomUUID(),
      tokenHash: randomUUID(),
      kind: 'payment' as const,
      objectId: waiting.id,
      tppId: waiting.tppId,
      tppName: 'Test TPP AS',
      psuId: undefined,
      psuNationalIdHash: hash,
      psuCorporateId: undefined,
      psuContext: 'PRIVATE',
      authMethod: undefined,
      redirectPreferred: true,
      tppRedirectUri: 'https://tpp.example/cb',
      tppSessionId: undefined,
      expiresAt: new Date(Date.now() + 600_000),
      createdAt: new Date(),
    };
    // Written as that version wrote them: today's store writes columns of later migrations.
    await insertPaymentAsBefore('012', before, waiting, authorisation);
    await insertPaymentAsBefore('012', before, signed);
    await before.destroy();

    const store = SqliteStore.open(path);
    try {
      await store.decidePayments([{ paymentId: signed.id, status: 'ACTC', reason: undefined }], undefined, new Date());

      await store.migrate();

      const [afterWaiting, afterSigned] = await store.findPaymentsForSca(waiting.tppId, [waiting.id, signed.id]);
      assert.equal(afterWaiting?.status, 'RJCT');
      assert.equal((await store.findPayment(waiting.tppId, waiting.id, ''))?.statusReason, LEGACY_NATIONAL_ID_REASON);
      assert.equal(afterSigned?.status, 'ACTC', 'a signed payment stays signed');
      for (const payment of [afterWaiting, afterSigned]) {
        assert.equal(payment?.psuNationalIdHash, undefined);
        assert.ok(!payment?.psuKey.includes(hash), `psu_key ${payment?.psuKey}`);
      }
      const found = await store.findAuthorisation(authorisation.tokenHash);
      assert.equal(found?.stage, 'done');
      assert.equal(found?.status, 'failed');
      assert.equal(found?.psuNationalIdHash, undefined);
      const text =
        store.connection
          .prepare('select * from payments')
          .all()
          .map((row) => JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))
          .join('\n') + JSON.stringify(store.connection.prepare('select psu_key from transfers').all());
      assert.ok(!text.includes(hash), 'the old hash is nowhere in payments or transfers');
    } finally {
      await store.close();
    }
  });
});
