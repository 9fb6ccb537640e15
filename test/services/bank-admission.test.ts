import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BankEntry, BankOwner } from '../../src/domain/bank.js';
import { BANK_KEY_RECHECK_MS } from '../../src/domain/limits.js';
import { Banks } from '../../src/services/banks.js';
import type { Store } from '../../src/store/store.js';

const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);

/** A store that answers enterBank as told and counts what Banks.enter asks of it. */
function countingStore(answer: (owner: BankOwner) => BankEntry) {
  const calls: BankOwner[] = [];
  const touches: Date[] = [];
  const inFlight = { now: 0, most: 0 };
  const store = {
    enterBank: async (_bank: string, owner: BankOwner) => {
      calls.push(owner);
      inFlight.now += 1;
      inFlight.most = Math.max(inFlight.most, inFlight.now);
      // A round trip: the requests that come meanwhile find the admission under way.
      await new Promise((resolve) => setImmediate(resolve));
      inFlight.now -= 1;
      return answer(owner);
    },
    touchBank: async (_bank: string, at: Date) => {
      touches.push(at);
      return true;
    },
  } as unknown as Store;
  return { store, calls, touches, inFlight };
}

/**
 * The per-process admission cache of Banks.enter (docs/security.md, "Tenancy"): a trusted CA's
 * certificates are admitted by one entry per bank, whatever their keys, with no store call per request
 * while nothing changed; a self-service key needs an entry of its own.
 */
describe('Banks.enter: the admission cache', () => {
  it('admits every trusted certificate of a bank from one entry, asking the store once per BANK_KEY_RECHECK_MS', async () => {
    let now = Date.parse('2026-11-20T10:00:00Z');
    const { store, calls } = countingStore(() => 'trusted');
    const banks = new Banks(store, 'sandbox', { now: () => new Date(now) });
    for (let i = 0; i < 100; i++) await banks.enter('TPP', i % 2 === 0 ? KEY_A : KEY_B, 'trusted', '192.0.2.1');
    assert.equal(calls.length, 1, 'one store call for 100 requests of two keys');
    assert.equal(calls[0]!.trusted, true);
    now += BANK_KEY_RECHECK_MS;
    await banks.enter('TPP', KEY_B, 'trusted', '192.0.2.1');
    assert.equal(calls.length, 2, 'looked up again after the recheck interval (a bank removed elsewhere is noticed)');
  });

  it("does not let a self-service key in on a trusted certificate's entry for the same key", async () => {
    const { store, calls } = countingStore((owner) => (owner.trusted === true ? 'trusted' : 'foreign-trusted'));
    const banks = new Banks(store, 'sandbox', { now: () => new Date('2026-11-20T10:00:00Z') });
    await banks.enter('TPP', KEY_A, 'trusted', '192.0.2.1');
    await assert.rejects(
      async () => banks.enter('TPP', KEY_A, 'self-service', '192.0.2.1'),
      (error: Error & { status?: number }) => {
        assert.equal(error.status, 403);
        assert.match(error.message, /self-service CA, whose key is not bound to the bank/);
        return true;
      },
    );
    assert.equal(calls.length, 2, 'the self-service certificate asked the store for itself');
    assert.equal(calls[1]!.trusted, undefined);
  });

  it('asks the store once for the requests that come together, at the first and when the recheck is due', async () => {
    let now = Date.parse('2026-11-20T10:00:00Z');
    const { store, calls, touches } = countingStore(() => 'trusted');
    const banks = new Banks(store, 'sandbox', { now: () => new Date(now) });
    const together = () =>
      Promise.all(
        Array.from({ length: 16 }, (_, i) => banks.enter('TPP', i % 2 === 0 ? KEY_A : KEY_B, 'trusted', '192.0.2.1')),
      );
    await together();
    assert.equal(calls.length, 1, '16 requests in flight at the first: one look-up');
    assert.equal(touches.length, 1, 'and one note of the use');
    now += BANK_KEY_RECHECK_MS;
    await together();
    assert.equal(calls.length, 2, 'the recheck due for 16 requests in flight: one look-up');
    assert.equal(touches.length, 1, 'the use noted a minute ago is not written again by each of them');
  });

  it('answers each refused request that came together with an error of its own', async () => {
    const { store, calls, inFlight } = countingStore(() => 'foreign');
    const banks = new Banks(store, 'sandbox', { now: () => new Date('2026-11-20T10:00:00Z') });
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => banks.enter('TPP', KEY_A, 'self-service', '192.0.2.1')),
    );
    const errors = results.map((r) => {
      assert.equal(r.status, 'rejected');
      const error = (r as PromiseRejectedResult).reason as Error & { status?: number };
      assert.equal(error.status, 403);
      return error;
    });
    assert.equal(new Set(errors).size, 4, 'no error object is shared between requests');
    assert.equal(calls.length, 4, 'a refused key is asked again for each request, as before');
    assert.equal(inFlight.most, 3, 'the three that waited are asked at once, not one after another');
  });

  it('keeps no admission of a key unbound while it was looked up, and lets no request after the unbind wait for it', async () => {
    const at = { now: () => new Date('2026-11-20T10:00:00Z') };
    const first = countingStore(() => 'bound');
    const banks = new Banks(first.store, 'sandbox', at);
    const lookedUp = banks.enter('TPP', KEY_A, 'self-service', '192.0.2.1');
    banks.forget('TPP', KEY_A);
    await lookedUp;
    await banks.enter('TPP', KEY_A, 'self-service', '192.0.2.1');
    assert.equal(
      first.calls.length,
      2,
      'the look-up begun before the unbind was not kept: the next request asked again',
    );

    const second = countingStore(() => 'bound');
    const other = new Banks(second.store, 'sandbox', at);
    const before = other.enter('TPP', KEY_A, 'self-service', '192.0.2.1');
    other.forget('TPP', KEY_A);
    const after = other.enter('TPP', KEY_A, 'self-service', '192.0.2.1');
    assert.equal(second.calls.length, 2, 'the request after the unbind asked the store for itself');
    await Promise.all([before, after]);
  });
});
