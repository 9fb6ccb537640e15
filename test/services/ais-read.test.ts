import { EmbeddedCore } from '../../src/core/embedded/embedded-core.js';
import type { EmbeddedPayments } from '../../src/core/embedded/embedded-payments.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.js';
import { SANDBOX_BANK_BIC } from '../../src/domain/bank.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { AisService } from '../../src/services/ais-service.js';
import { AisAccess, type AisRequest } from '../../src/services/ais/ais-access.js';
import { AisConsents } from '../../src/services/ais/ais-consents.js';
import { ReadTarget } from '../../src/services/ais/ais-read.js';
import { Banks } from '../../src/services/banks.js';
import type { ScaService } from '../../src/services/sca-service.js';
import type { AisAccount, AisCardAccount, AisConsent } from '../../src/store/ais-records.js';
import type { SandboxTransaction } from '../../src/store/sandbox-records.js';
import type { Store } from '../../src/store/store.js';

const NOW = new Date('2026-11-23T10:00:00Z');
const TODAY = '2026-11-23';
const TPP = 'PSDNO-FSA-TEST';

const ACCOUNT: AisAccount = {
  id: 'acc-1',
  customerId: 'cust-1',
  bban: '12345678903',
  iban: 'NO9312345678903',
  currency: 'NOK',
  name: 'Brukskonto',
  product: 'Brukskonto',
  cashAccountType: 'CACC',
  creditLineMinor: 0n,
  balanceMinor: 100_000n,
  status: 'enabled',
  ownerName: 'Ola Nordmann',
  ownerType: 'PRIVATE',
};

const CARD: AisCardAccount = {
  id: 'card-1',
  customerId: 'cust-1',
  maskedPan: '123456******1234',
  name: 'Kredittkort',
  product: 'Kredittkort',
  currency: 'NOK',
  creditLimitMinor: 1_000_000n,
  body: {},
  ownerName: 'Ola Nordmann',
  ownerType: 'PRIVATE',
};

const TRANSACTION: SandboxTransaction = {
  id: 'tx-1',
  accountId: ACCOUNT.id,
  seq: 1,
  amountMinor: -5_000n,
  currency: 'NOK',
  bookingDate: TODAY,
  valueDate: TODAY,
  remittance: 'Rema 1000',
  creditorName: 'Rema 1000',
  creditorIban: '',
  creditorBban: '',
  debtorName: 'Ola Nordmann',
  debtorIban: ACCOUNT.iban,
  debtorBban: ACCOUNT.bban,
  bankTransactionCode: 'PMNT-ICDT-DMCT',
  ultimateDebtor: '',
  ultimateCreditor: '',
  purposeCode: '',
  paymentId: undefined,
  endToEndId: '',
};

const CONSENT: AisConsent = {
  id: 'consent-1',
  bank: '',
  tppId: TPP,
  tppSessionId: 'session-1',
  status: 'valid',
  psuContext: 'PRIVATE',
  agreementId: undefined,
  customerId: 'cust-1',
  scaAt: NOW,
  createdAt: NOW,
};

/** A store with one consent sharing ACCOUNT and CARD, that writes down what account information asks of it. */
function recordingStore(allowanceUsed = 0): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const reads = new Map<string, number>();
  const store: Pick<
    Store,
    | 'findPsuSession'
    | 'findSessionConsent'
    | 'aisConsentResources'
    | 'shareableAccounts'
    | 'countUnattendedReads'
    | 'pendingPayments'
    | 'aisTransactions'
    | 'aisCardTransactions'
    | 'findSandboxTransaction'
  > = {
    findPsuSession: async (tppId, psuId) => ({ psuId, tppId, customerId: 'cust-1', lastScaAt: NOW }),
    findSessionConsent: async () => CONSENT,
    aisConsentResources: async () => [
      { kind: 'account', id: ACCOUNT.id },
      { kind: 'card', id: CARD.id },
    ],
    shareableAccounts: async () => {
      calls.push('shareableAccounts');
      return { accounts: [ACCOUNT], cards: [CARD] };
    },
    countUnattendedReads: async (tppId, keys, day) => {
      calls.push(...keys.map((key) => `count ${tppId} ${key} ${day}`));
      const beyond = keys.find((key) => (reads.get(key) ?? allowanceUsed) + 1 > 4);
      if (beyond === undefined) for (const key of keys) reads.set(key, (reads.get(key) ?? allowanceUsed) + 1);
      return beyond;
    },
    pendingPayments: async () => [],
    aisTransactions: async () => [],
    aisCardTransactions: async () => [],
    findSandboxTransaction: async (accountId, id) =>
      accountId === ACCOUNT.id && id === TRANSACTION.id ? TRANSACTION : undefined,
  };
  return { store: store as Store, calls };
}

function banksOf(store: Store): Banks {
  return new Banks(store, 'production', { now: () => NOW });
}

function request(overrides: Partial<AisRequest> = {}): AisRequest {
  return {
    tpp: { id: TPP, name: 'Test TPP', roles: ['PSP_AI'], ncaName: 'Finanstilsynet', ncaId: 'NO-FSA' },
    sca: {
      tppId: TPP,
      tppName: 'Test TPP',
      psuId: 'psu-1',
      psuNationalIdHash: undefined,
      psuCorporateId: undefined,
      psuContext: undefined,
      authMethodPreferred: undefined,
      redirectPreferred: true,
      tppRedirectUri: undefined,
      tppSessionId: 'session-1',
    },
    psuPresent: false,
    acceptFix: undefined,
    ...overrides,
  };
}

function accessWith(store: Store): AisAccess {
  const banks = banksOf(store);
  const core = new EmbeddedCore(store, {} as EmbeddedPayments);
  return new AisAccess(store, core, banks, new AisConsents(store, core, banks, {} as ScaService));
}

const transactionsQuery = { bookingStatus: 'booked' as const, dateFrom: TODAY };

/**
 * Every read AisService offers, how a test calls it, and the count it must leave: kind, then the
 * resource (a list counts under its consent). A read added to AisService must be added here, and is
 * then proved counted.
 */
const READS: Record<string, { call: (ais: AisService) => Promise<unknown>; counts: string[] }> = {
  'accounts.list': {
    call: (ais) => ais.accounts.list(request(), true),
    counts: ['accounts:consent-1', 'balances:acc-1'],
  },
  'accounts.read': {
    call: (ais) => ais.accounts.read(request(), ACCOUNT.id, true),
    counts: ['account:acc-1', 'balances:acc-1'],
  },
  'accounts.readBalances': {
    call: (ais) => ais.accounts.readBalances(request(), ACCOUNT.id),
    counts: ['balances:acc-1'],
  },
  'transactions.list': {
    call: (ais) => ais.transactions.list(request(), ACCOUNT.id, { ...transactionsQuery, withBalance: true }),
    counts: ['transactions:acc-1', 'balances:acc-1'],
  },
  'transactions.read': {
    call: (ais) => ais.transactions.read(request(), ACCOUNT.id, TRANSACTION.id),
    counts: ['transactions:acc-1'],
  },
  'cardAccounts.list': {
    call: (ais) => ais.cardAccounts.list(request(), true),
    counts: ['accounts:cards:consent-1', 'balances:card-1'],
  },
  'cardAccounts.read': {
    call: (ais) => ais.cardAccounts.read(request(), CARD.id, true),
    counts: ['account:card-1', 'balances:card-1'],
  },
  'cardAccounts.readBalances': {
    call: (ais) => ais.cardAccounts.readBalances(request(), CARD.id),
    counts: ['balances:card-1'],
  },
  'cardAccounts.transactions': {
    call: (ais) => ais.cardAccounts.transactions(request(), CARD.id, { ...transactionsQuery, withBalance: true }),
    counts: ['transactions:card-1', 'balances:card-1'],
  },
};

/** The methods a class's objects offer, without the constructor (#private ones are not on the prototype). */
function methodsOf(prototype: object): string[] {
  return Object.getOwnPropertyNames(prototype).filter((name) => name !== 'constructor');
}

describe('account-information reads go through AisAccess.read (RTS 36(5) cannot be skipped)', () => {
  it('counts a new read declared through AisAccess.read under its kind and resource, before its view sees the account', async () => {
    const { store, calls } = recordingStore();
    const answer = await accessWith(store).read(request(), {
      of: ReadTarget.account(ACCOUNT.id),
      counts: 'balances',
      view: ({ resource, today }) => {
        calls.push('view');
        return { resourceId: resource.id, today };
      },
    });
    assert.deepEqual(calls, ['shareableAccounts', `count ${TPP} balances:acc-1 ${TODAY}`, 'view']);
    assert.deepEqual(answer, { resourceId: ACCOUNT.id, today: TODAY });
  });

  it('adds the WARNINGs of unknown x-accept-fix names to what the view answers', async () => {
    const { store } = recordingStore();
    const answer = await accessWith(store).read(request({ acceptFix: 'no-such-fix' }), {
      of: ReadTarget.accounts,
      counts: 'accounts',
      view: ({ resource }) => ({ n: resource.length }),
    });
    assert.equal(answer.n, 1);
    assert.ok(Array.isArray(answer.tppMessages) && answer.tppMessages.length > 0);
  });

  it('answers the fifth unattended read of a day 429 ACCESS_EXCEEDED without running its view', async () => {
    const { store, calls } = recordingStore(4);
    await assert.rejects(
      accessWith(store).read(request(), {
        of: ReadTarget.card(CARD.id),
        counts: 'account',
        view: () => {
          calls.push('view');
          return {};
        },
      }),
      (error: unknown) => error instanceof ApiError && error.code === 'ACCESS_EXCEEDED',
    );
    assert.ok(!calls.includes('view'));
  });

  it('does not count a read the PSU asked for, a resource not shared, or one a check refused', async () => {
    const { store, calls } = recordingStore();
    const access = accessWith(store);
    const view = () => ({});
    await access.read(request({ psuPresent: true }), { of: ReadTarget.accounts, counts: 'accounts', view });
    await assert.rejects(
      access.read(request(), { of: ReadTarget.account('acc-not-shared'), counts: 'account', view }),
      (error: unknown) => error instanceof ApiError && error.code === 'RESOURCE_UNKNOWN',
    );
    const refused = ReadTarget.account(ACCOUNT.id).checked(async () => {
      throw new ApiError('RESOURCE_UNKNOWN', 'refused');
    });
    await assert.rejects(access.read(request(), { of: refused, counts: 'transactions', view }));
    assert.deepEqual(
      calls.filter((call) => call.startsWith('count')),
      [],
    );
  });

  it('counts every read AisService offers once, under its kind and resource; a read not listed here fails', async () => {
    const { store, calls } = recordingStore();
    const ais = new AisService(
      store,
      new EmbeddedCore(store, {} as EmbeddedPayments),
      banksOf(store),
      new ReferenceRates(SANDBOX_REFERENCE_RATES),
      {} as ScaService,
      SANDBOX_BANK_BIC,
    );
    const offered = Object.keys(ais)
      .filter((resource) => resource !== 'consents')
      .flatMap((resource) =>
        methodsOf(Object.getPrototypeOf(ais[resource as keyof AisService])).map((method) => `${resource}.${method}`),
      );
    assert.deepEqual(offered.sort(), Object.keys(READS).sort());
    for (const [name, read] of Object.entries(READS)) {
      calls.length = 0;
      const answer = await read.call(ais);
      assert.deepEqual(
        calls.filter((call) => call.startsWith('count')),
        read.counts.map((key) => `count ${TPP} ${key} ${TODAY}`),
        name,
      );
      // No answer carries balances that were not counted as a balances read (RTS 36(5), withBalance).
      if (JSON.stringify(answer).includes('"balances"'))
        assert.ok(
          read.counts.some((key) => key.startsWith('balances:')),
          `${name} answers balances it did not count`,
        );
    }
  });

  it('refuses a withBalance read whole when the balances are used up, and counts none of it', async () => {
    const { store, calls } = recordingStore();
    const ais = new AisService(
      store,
      new EmbeddedCore(store, {} as EmbeddedPayments),
      banksOf(store),
      new ReferenceRates(SANDBOX_REFERENCE_RATES),
      {} as ScaService,
      SANDBOX_BANK_BIC,
    );
    for (let i = 0; i < 4; i++) await ais.accounts.readBalances(request(), ACCOUNT.id);
    await assert.rejects(
      ais.accounts.read(request(), ACCOUNT.id, true),
      (error: unknown) =>
        error instanceof ApiError &&
        error.code === 'ACCESS_EXCEEDED' &&
        /withBalance/.test(error.tppMessages[0]!.text!),
    );
    // The refused read took none of the details' four: all four are left without withBalance.
    for (let i = 0; i < 4; i++) {
      const answer = (await ais.accounts.read(request(), ACCOUNT.id, false)) as { account: Record<string, unknown> };
      assert.equal(answer.account.balances, undefined);
    }
    await assert.rejects(ais.accounts.read(request(), ACCOUNT.id, false), /the details of acc-1/);
    assert.ok(calls.length > 0);
  });

  it('reaches a consent only through read: AisAccess offers nothing else, and ReadTarget is made by its factories only', () => {
    assert.deepEqual(methodsOf(AisAccess.prototype), ['read']);
    assert.deepEqual(
      Object.getOwnPropertyNames(ReadTarget)
        .filter((name) => !['length', 'name', 'prototype'].includes(name))
        .sort(),
      ['account', 'accounts', 'card', 'cards'],
    );
    // The compiler refuses these: were one allowed, the @ts-expect-error would fail the build.
    const bypasses = (access: AisAccess) => [
      // @ts-expect-error a read cannot open a consent without the entry
      access.open(request()),
      // @ts-expect-error nor count, or skip counting, by hand
      access.countRead,
      // @ts-expect-error nor make a target of its own, counted under a resource it names
      new ReadTarget(async () => ({ resource: ACCOUNT, countedUnder: 'anything', reaches: [] })),
    ];
    assert.equal(typeof bypasses, 'function');
  });
});
