import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planExecution } from '../../src/domain/payment-execution.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import type { ArmedScenario, ScenarioRule } from '../../src/domain/sandbox-scenarios.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import type { Store } from '../../src/store/store.js';
import { newPayment, requestFor } from '../support/new-payment.js';
import type { StoreUnderTest } from './store-under-test.js';

const BANK = 'PSDNO-FSA-333333333';
const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
const plan = (payment: Parameters<typeof planExecution>[0], debtor: Parameters<typeof planExecution>[1]) =>
  planExecution(payment, debtor, rates);
const at = new Date('2026-11-20T10:00:00.000Z');
const later = (ms: number) => new Date(at.getTime() + ms);

function armed(id: string, rule: ScenarioRule, timesLeft: number | undefined, createdAt = at): ArmedScenario {
  return { id, rule, timesLeft, createdAt };
}

/** The sandbox's armed scenarios and held payments: what every Store must do (run by store-contract.ts on both databases). */
export function scenarioContract(open: () => Promise<StoreUnderTest>): void {
  async function withBank(test: (store: Store, another: Store) => Promise<void>): Promise<void> {
    const { store, openAnother } = await open();
    const another = await openAnother();
    try {
      await store.migrate();
      await store.openBank(BANK, at, (when) => ({ ...defaultDataSet(when), standingOrders: [] }));
      await test(store, another);
    } finally {
      await another.close();
      await store.close();
    }
  }

  /** An authorised payment of NOK 100 from Ola's current account, of the bank. */
  async function authorisedPayment(store: Store): Promise<string> {
    const payment = newPayment({
      amountMinor: 10_000n,
      debtor: { bban: '15061012343', iban: undefined, currency: 'NOK' },
    });
    await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank: BANK });
    await store.decidePayments([{ paymentId: payment.id, status: 'ACTC', reason: undefined }], undefined, at);
    return payment.id;
  }

  describe('sandbox scenarios', () => {
    it('arms, lists oldest first, disarms within its bank, and arms no more than the limit', () =>
      withBank(async (store) => {
        const throttled = { kind: 'bank-throttled', operationId: undefined, retryAfterSeconds: 5 } as const;
        assert.equal(await store.armSandboxScenario(BANK, armed('b', throttled, 2, later(1)), 2, at), true);
        assert.equal(await store.armSandboxScenario(BANK, armed('a', throttled, undefined), 2, at), true);
        assert.equal(await store.armSandboxScenario(BANK, armed('c', throttled, 1), 2, at), false, 'the limit');
        assert.deepEqual(
          (await store.listSandboxScenarios(BANK, at)).map((s) => [s.id, s.timesLeft]),
          [
            ['a', undefined],
            ['b', 2],
          ],
        );
        assert.deepEqual(await store.listSandboxScenarios('PSDNO-FSA-444444444', at), [], 'another bank has none');
        assert.equal(await store.disarmSandboxScenario('PSDNO-FSA-444444444', 'a'), false, "not another bank's");
        assert.equal(await store.disarmSandboxScenario(BANK, 'a'), true);
        assert.equal(await store.disarmSandboxScenario(BANK, 'a'), false);
        assert.deepEqual(
          (await store.listBankFaults(BANK)).map((s) => s.rule),
          [throttled],
          'read back as armed',
        );
      }));

    it('spends a rule one time per call, from any instance, never more times than it has; the last deletes it', () =>
      withBank(async (store, another) => {
        const rule = { kind: 'bank-error', operationId: 'getAccountList' } as const;
        await store.armSandboxScenario(BANK, armed('e', rule, 3), 50, at);
        const scenario = (await store.listBankFaults(BANK))[0]!;
        const taken = await Promise.all(
          Array.from({ length: 5 }, (_, i) => (i % 2 === 0 ? store : another).spendSandboxScenario(scenario)),
        );
        assert.equal(taken.filter(Boolean).length, 3);
        assert.deepEqual(await store.listBankFaults(BANK), []);
      }));

    it('removes a maintenance window once it has ended', () =>
      withBank(async (store) => {
        const window = { kind: 'bank-maintenance', operationId: undefined, from: at, until: later(60_000) } as const;
        await store.armSandboxScenario(BANK, armed('m', window, undefined), 50, at);
        assert.equal((await store.listSandboxScenarios(BANK, later(59_999))).length, 1);
        assert.deepEqual(await store.listSandboxScenarios(BANK, later(60_000)), []);
      }));

    it('holds a payment a rule takes (PDNG), out of the due look-up until its time, then settles it as the rule says', () =>
      withBank(async (store) => {
        const rule = {
          kind: 'payment-pending',
          match: { debtorAccount: { bban: '15061012343' } },
          until: later(3_600_000),
          then: 'RJCT',
          reason: 'AC06 blocked',
        } as const;
        await store.armSandboxScenario(BANK, armed('p', rule, 1), 50, at);
        const id = await authorisedPayment(store);
        assert.deepEqual(await store.executePayments(BANK, [id], '2026-11-20', at, plan, true), [
          { paymentId: id, status: 'PDNG' },
        ]);
        assert.deepEqual(await store.listSandboxScenarios(BANK, at), [], 'spent');
        assert.deepEqual(await store.findDuePaymentIds(BANK, '2099-01-01', 10, later(3_599_999)), []);
        assert.equal(await store.earliestDueDate(BANK), '2026-11-20');
        assert.deepEqual(await store.executePayments(BANK, [id], '2026-11-20', later(1), plan, true), [], 'not yet');
        assert.deepEqual(await store.findDuePaymentIds(BANK, '2026-11-20', 10, later(3_600_000)), [id]);
        assert.deepEqual(await store.executePayments(BANK, [id], '2026-11-20', later(3_600_000), plan, true), [
          { paymentId: id, status: 'RJCT' },
        ]);
        const stored = await store.findPayment(newPayment().tppId, id, BANK);
        assert.deepEqual([stored?.status, stored?.statusReason], ['RJCT', 'AC06 blocked']);
        assert.deepEqual(await store.findDuePaymentIds(BANK, '2099-01-01', 10, later(9_999_999)), []);
      }));

    it('keeps the bank facts every signed request needs (clock offset, a fault armed) with a version each change of them raises, whichever instance makes it', () =>
      withBank(async (store, another) => {
        const first = await store.readBankFacts(BANK);
        assert.deepEqual([first.clockOffsetMs, first.faultArmed], [0n, false]);
        const versions: number[] = [first.version];
        const changed = async (what: string, armedNow: boolean, offset = 0n) => {
          const facts = await another.readBankFacts(BANK);
          assert.deepEqual([facts.clockOffsetMs, facts.faultArmed], [offset, armedNow], what);
          assert.ok(facts.version > versions.at(-1)!, `${what} raised the version`);
          assert.deepEqual(await store.bankFactsVersions([BANK, 'no-such-bank']), new Map([[BANK, facts.version]]));
          versions.push(facts.version);
        };
        const throttled = { kind: 'bank-throttled', operationId: undefined, retryAfterSeconds: 5 } as const;
        await store.armSandboxScenario(BANK, armed('f', throttled, 2), 5, at);
        await changed('a fault armed', true);
        assert.equal(await store.spendSandboxScenario(armed('f', throttled, 2)), true);
        await changed('one of its times spent', true);
        assert.equal(await store.disarmSandboxScenario(BANK, 'f'), true);
        await changed('disarmed', false);
        await store.writeClockOffset(BANK, 86_400_000n, at);
        await changed('the clock moved', false, 86_400_000n);
        const unchanged = await store.readBankFacts(BANK);
        assert.equal(unchanged.version, versions.at(-1), 'a read changes nothing');
        assert.deepEqual(await store.bankFactsVersions([]), new Map());
      }));

    it('applies no scenario without `scenarios` (production), and none of another bank', () =>
      withBank(async (store) => {
        const rule = { kind: 'payment-rejected', match: {}, reason: 'MS03 no' } as const;
        await store.armSandboxScenario('PSDNO-FSA-444444444', armed('x', rule, undefined), 50, at);
        await store.armSandboxScenario(BANK, armed('y', rule, undefined), 50, at);
        const first = await authorisedPayment(store);
        assert.deepEqual(await store.executePayments(BANK, [first], '2026-11-20', at, plan), [
          { paymentId: first, status: 'ACSC' },
        ]);
        await store.disarmSandboxScenario(BANK, 'y');
        const second = await authorisedPayment(store);
        assert.deepEqual(await store.executePayments(BANK, [second], '2026-11-20', at, plan, true), [
          { paymentId: second, status: 'ACSC' },
        ]);
      }));
  });
}
