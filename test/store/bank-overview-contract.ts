import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { planExecution } from '../../src/domain/payment-execution.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import type { NewAuthorisation } from '../../src/store/sca-records.js';
import type { Store } from '../../src/store/store.js';
import { newPayment, requestFor } from '../support/new-payment.js';
import type { StoreUnderTest } from './store-under-test.js';
import { newAisConsent } from '../support/new-ais-consent.js';
import { newAuthorisation } from '../support/new-authorisation.js';

const A = 'PSDNO-FSA-111111111';
const B = 'PSDNO-FSA-222222222';
const OLA_SAVINGS = '15061012351';
const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
const at = (minute: number) => new Date(Date.parse('2026-11-20T09:00:00.000Z') + minute * 60_000);

/** A bank's lists for its console (bank-overview-records.ts): what every Store must do (run by store-contract.ts on both databases). */
export function bankOverviewContract(open: () => Promise<StoreUnderTest>): void {
  async function withBanks(test: (store: Store) => Promise<void>): Promise<void> {
    const { store } = await open();
    try {
      await store.migrate();
      await store.openBank(A, at(0), defaultDataSet);
      await store.openBank(B, at(0), defaultDataSet);
      await test(store);
    } finally {
      await store.close();
    }
  }

  /** A payment of the TPP in its own bank, made at the minute given. */
  async function paid(store: Store, tppId: string, minute: number, transfers = 1) {
    const base = newPayment({
      tppId,
      createdAt: at(minute),
      debtor: { bban: OLA_SAVINGS, iban: undefined, currency: 'NOK' },
    });
    const first = base.transfers[0]!;
    const payment = {
      ...base,
      transfers: Array.from({ length: transfers }, (_, i) => ({
        ...first,
        amount: { minor: 10_000n * BigInt(i + 1), currency: 'NOK' as const },
        creditorName: `Creditor ${i + 1}`,
        duplicateKey: `${first.duplicateKey.slice(0, -2)}${String(i).padStart(2, '0')}`,
        path: transfers === 1 ? '$' : `$.payments[${i}]`,
      })),
    };
    await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank: tppId });
    return payment;
  }

  describe("a bank's lists for its console", () => {
    it("lists the TPP's payments in its bank, newest first, each with its transfers' sum and first creditor, at most the limit", () =>
      withBanks(async (store) => {
        const first = await paid(store, A, 1);
        const bulk = await paid(store, A, 2, 3);
        const newest = await paid(store, A, 3);
        await paid(store, B, 4);
        // Then the default data set's standing order, made with the bank.
        assert.deepEqual((await store.listPayments(A, A, 10)).map((p) => p.id).slice(0, 3), [
          newest.id,
          bulk.id,
          first.id,
        ]);
        const [, listed] = await store.listPayments(A, A, 2);
        assert.equal(listed!.id, bulk.id);
        assert.equal(listed!.amountMinor, 60_000n, '1 + 2 + 3 hundred');
        assert.equal(listed!.currency, 'NOK');
        assert.equal(listed!.creditorName, 'Creditor 1');
        assert.equal(listed!.entryCount, 3);
        assert.equal(listed!.status, 'RCVD');
        assert.equal(listed!.debtorAccount, OLA_SAVINGS);
        assert.equal((await store.listPayments(A, A, 2)).length, 2);
        assert.equal((await store.listPayments(A, B, 10)).length, 0, "no payment of A's is in B's bank");
      }));

    it("reads a payment's history: its authorisations, its bookings and its status, and nothing of another bank's", () =>
      withBanks(async (store) => {
        const payment = await paid(store, A, 1);
        const authorisation = newAuthorisation('payment', payment.id, A, { expiresAt: at(16), createdAt: at(1) });
        await store.createAuthorisation(authorisation);
        await store.decidePayments([{ paymentId: payment.id, status: 'ACTC', reason: undefined }], undefined, at(2));
        const outcomes = await store.executePayments(A, [payment.id], '2026-11-20', at(3), (p, debtor) =>
          planExecution(p, debtor, rates),
        );
        assert.equal(outcomes[0]?.status, 'ACSC');

        const history = (await store.paymentHistory(A, A, payment.id, 10))!;
        assert.equal(history.payment.status, 'ACSC');
        assert.equal(history.payment.authorisedAt, at(2).toISOString());
        assert.equal(history.payment.updatedAt, at(3).toISOString());
        assert.equal(history.payment.feeMinor, 10_000n);
        assert.deepEqual(
          history.authorisations.map((a) => [a.id, a.kind, a.stage, a.createdAt.toISOString()]),
          [[authorisation.id, 'payment', 'link', at(1).toISOString()]],
        );
        assert.deepEqual(
          history.bookings.map((b) => [b.accountBban, b.direction, b.amountMinor, b.bookingDate]),
          [
            [OLA_SAVINGS, 'debit', 10_000n, '2026-11-20'],
            [OLA_SAVINGS, 'debit', 10_000n, '2026-11-20'],
          ],
          'the transfer and its fee',
        );
        assert.equal((await store.paymentHistory(A, A, payment.id, 1))!.bookings.length, 1, 'at most the limit');
        assert.deepEqual(history.executions, []);
        assert.equal(await store.paymentHistory(B, B, payment.id, 10), undefined, "not in B's bank");
        assert.equal(await store.paymentHistory(A, A, 'enc!!-no-such-payment', 10), undefined);
      }));

    it("lists the TPP's consents in its bank, newest first, with who gave each and what it shares", () =>
      withBanks(async (store) => {
        const ola = (await store.findCustomer(A, { customerNumber: '13039319955' }))!;
        const savings = (await store.findAccount(A, { bban: OLA_SAVINGS }))!;
        const consent = (tppId: string, minute: number) =>
          newAisConsent(tppId, { tppSessionId: `session-${minute}`, createdAt: at(minute) });
        const authorisation = (consentId: string, tppId: string): NewAuthorisation => ({
          id: randomUUID(),
          tokenHash: randomUUID(),
          kind: 'consent',
          objectId: consentId,
          tppId,
          tppName: 'Test TPP AS',
          psuId: undefined,
          psuNationalIdHash: undefined,
          psuCorporateId: undefined,
          psuContext: 'PRIVATE',
          authMethod: undefined,
          redirectPreferred: true,
          tppRedirectUri: undefined,
          tppSessionId: undefined,
          expiresAt: at(30),
          createdAt: at(1),
        });
        const given = consent(A, 1);
        const waiting = consent(A, 2);
        const others = consent(B, 3);
        for (const c of [given, waiting, others]) await store.createChallengeConsent(c, authorisation(c.id, c.tppId));
        assert.equal(await store.giveAisConsent(given.id, ola.id, [{ kind: 'account', id: savings.id }], at(4)), true);

        const listed = await store.listConsents(A, A, 10);
        assert.deepEqual(
          listed.map((c) => [c.id, c.status]),
          [
            [waiting.id, 'received'],
            [given.id, 'valid'],
          ],
        );
        assert.equal(listed[0]!.customerNumber, undefined, 'not given yet');
        assert.equal(listed[1]!.customerNumber, '13039319955');
        assert.equal(listed[1]!.customerName, 'Ola Nordmann');
        assert.equal(listed[1]!.scaAt?.toISOString(), at(4).toISOString());
        assert.deepEqual(listed[1]!.shared, [{ kind: 'account', number: OLA_SAVINGS, name: savings.name }]);
        assert.equal((await store.listConsents(A, A, 1)).length, 1);
        assert.deepEqual(
          (await store.listConsents(B, B, 10)).map((c) => c.id),
          [others.id],
        );
      }));

    it("reads the accounts and card accounts of the bank's customers, of that bank only", () =>
      withBanks(async (store) => {
        const customers = await store.listSandboxCustomers(A, 0, 100);
        const ola = customers.find((c) => c.customerNumber === '13039319955')!;
        const card = {
          id: randomUUID(),
          customerId: ola.id,
          maskedPan: '525412******3241',
          name: 'Visa',
          product: 'Visa Classic',
          currency: 'NOK',
          creditLimitMinor: 5_000_000n,
          balanceMinor: -120_000n,
          body: {},
          createdAt: at(1),
        };
        assert.equal(await store.createSandboxCardAccount(A, card), true);
        const { accounts, cards } = await store.customerAccounts(A, [ola.id]);
        assert.ok(accounts.length >= 2, 'his current and savings accounts');
        assert.ok(accounts.every((a) => a.customerId === ola.id && a.customerNumber === '13039319955'));
        const savings = accounts.find((a) => a.bban === OLA_SAVINGS)!;
        assert.equal(savings.balanceMinor, (await store.findSandboxAccount(A, savings.id))!.balanceMinor);
        assert.deepEqual(
          cards.map((k) => [k.id, k.maskedPan, k.customerNumber, k.creditLimitMinor, k.balanceMinor]),
          [[card.id, card.maskedPan, '13039319955', 5_000_000n, -120_000n]],
        );
        const all = await store.customerAccounts(
          A,
          customers.map((c) => c.id),
        );
        assert.ok(all.accounts.length > accounts.length, "every customer's accounts");
        assert.deepEqual(
          await store.customerAccounts(B, [ola.id]),
          { accounts: [], cards: [] },
          "A's customer in B's bank",
        );
      }));
  });
}
