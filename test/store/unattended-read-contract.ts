import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoreUnderTest } from './store-under-test.js';

const TPP = 'PSDNO-FSA-111111111';
const DAY = '2026-11-23';

/** RTS 36(5)'s counts of reads without the PSU: what every Store must do (run by store-contract.ts on both databases). */
export function unattendedReadContract(open: () => Promise<StoreUnderTest>): void {
  describe('unattended reads (RTS 36(5))', () => {
    it('counts a read under all its keys or none: a key beyond four refuses the read, and nothing of it is counted', async () => {
      const { store, openAnother } = await open();
      const another = await openAnother();
      try {
        await store.migrate();
        for (let i = 0; i < 4; i++) assert.equal(await store.countUnattendedReads(TPP, ['balances:a'], DAY), undefined);
        assert.equal(await store.countUnattendedReads(TPP, ['account:a', 'balances:a'], DAY), 'balances:a');
        // The refused read took none of account:a's four, on this instance or another.
        for (let i = 0; i < 4; i++)
          assert.equal(await (i % 2 === 0 ? store : another).countUnattendedReads(TPP, ['account:a'], DAY), undefined);
        assert.equal(await another.countUnattendedReads(TPP, ['account:a'], DAY), 'account:a');
        assert.equal(await store.countUnattendedReads(TPP, ['account:a'], '2026-11-24'), undefined, 'a new day');
        assert.equal(await store.countUnattendedReads('PSDNO-FSA-OTHER', ['balances:a'], DAY), undefined, 'per TPP');
      } finally {
        await another.close();
        await store.close();
      }
    });

    it('lets no more than four of one key through when ten reads arrive at once on two instances', async () => {
      const { store, openAnother } = await open();
      const another = await openAnother();
      try {
        await store.migrate();
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? store : another).countUnattendedReads(TPP, ['transactions:a', `balances:${i % 3}`], DAY),
          ),
        );
        assert.equal(outcomes.filter((o) => o === undefined).length, 4);
      } finally {
        await another.close();
        await store.close();
      }
    });
  });
}
