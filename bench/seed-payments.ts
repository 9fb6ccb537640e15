import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { duplicateKey } from '../src/domain/payments/payment.js';
import { duplicateDay, duplicateHash, duplicateHashScope } from '../src/store/duplicate-hash.js';
import { hashNationalId } from '../src/domain/psu.js';

/**
 * Authorised payments due now, written straight into the SQLite file of a stopped server in the
 * shape the store writes them (src/store/kysely-store.ts createPayment, then the SCA's ACTC decision:
 * payments and transfers ACTC, authorised_at and the signer set), with the accounts they move money
 * between. Payment i is, by turns:
 * - a cross-border payment (`payments`) of NOK 100–1 099 to a Swedish IBAN, not an account of this
 *   bank, with the NOK 100.00 fee: a debit and a fee transaction;
 * - a domestic bulk payment (`bulk-payments`) of one transfer of NOK 50–1 049 to the bench's
 *   creditor account in this bank: a debit, a credit, and the creditor's balance raised.
 * The debtors are DEBTORS accounts of one customer, each holding more than the run can take.
 */
export const DEBTORS = 10;
export const CROSS_BORDER_FEE_MINOR = 10_000n;
export const FEE_CODE = 'ACMT-MDOP-CHRG';

export interface SeededAccount {
  id: string;
  bban: string;
  iban: string;
  balanceMinor: bigint;
}

/** What the run should book, for checking it afterwards. */
export interface SeededPayments {
  paymentIds: string[];
  debtors: SeededAccount[];
  creditor: SeededAccount;
  /** Per debtor account id: the sum of amounts and fees its payments debit. */
  debitMinor: Map<string, bigint>;
  creditMinor: bigint;
  crossBorder: number;
  domestic: number;
}

const CUSTOMER_NUMBER = '01018510002';
const OPENING_BALANCE_MINOR = 1_000_000_000_000n;
/** Norwegian account numbers with valid check digits (MOD11): the debtors, then the creditor. */
const BBANS = [
  '96500000004',
  '96500000012',
  '96500000020',
  '96500000039',
  '96500000047',
  '96500000055',
  '96500000063',
  '96500000071',
  '96500000098',
  '96500000101',
  '96500000128',
];
const FOREIGN_CREDITOR = 'SE4550000000058398257466';
const ROWS_PER_INSERT = 200;

const bankId = () => `enc!!${randomBytes(18).toString('base64url')}`;
const iban = (bban: string) => {
  const remainder = BigInt(`${bban}232400`) % 97n;
  return `NO${String(98n - remainder).padStart(2, '0')}${bban}`;
};

/** The customer, its accounts and its PSU, whose payments are seeded. */
interface Parties {
  customerId: string;
  debtors: SeededAccount[];
  creditor: SeededAccount;
  nationalIdHash: string;
  psuKey: string;
  /** The duplicate-hash scope of the TPP and the PSU. */
  scope: bigint;
}

/** One seeded payment: its rows, and what the run should book of it. */
interface DuePayment {
  id: string;
  debtor: SeededAccount;
  crossBorder: boolean;
  amountMinor: bigint;
  fee: bigint;
  payment: unknown[];
  transfer: unknown[];
}

export function seedDuePayments(file: string, count: number, tppId: string): SeededPayments {
  if (BBANS.length < DEBTORS + 1) throw new Error('not enough account numbers');
  const db = new BetterSqlite3(file);
  try {
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    const now = new Date();
    const at = now.toISOString();
    // Created and authorised over the last hour, in order, as PSUs would have: the batch executes
    // them in the order of authorisation.
    const startedAt = now.getTime() - 3_600_000;
    const instant = (i: number) => new Date(startedAt + Math.floor((i * 3_500_000) / count)).toISOString();
    const parties = seededParties(tppId);
    const { debtors, creditor } = parties;
    const result: SeededPayments = {
      paymentIds: [],
      debtors,
      creditor,
      debitMinor: new Map(debtors.map((d) => [d.id, 0n])),
      creditMinor: 0n,
      crossBorder: 0,
      domestic: 0,
    };

    const payments: unknown[][] = [];
    const transfers: unknown[][] = [];
    for (let i = 0; i < count; i++) {
      const { id, debtor, crossBorder, amountMinor, fee, payment, transfer } = duePayment(
        i,
        tppId,
        parties,
        instant(i),
      );
      payments.push(payment);
      transfers.push(transfer);
      result.paymentIds.push(id);
      result.debitMinor.set(debtor.id, result.debitMinor.get(debtor.id)! + amountMinor + fee);
      if (crossBorder) result.crossBorder += 1;
      else {
        result.domestic += 1;
        result.creditMinor += amountMinor;
      }
    }

    writeSeed(db, tppId, parties, at, payments, transfers);
    db.pragma('journal_mode = WAL');
    return result;
  } finally {
    db.close();
  }
}

function seededParties(tppId: string): Parties {
  const customerId = bankId();
  const account = (bban: string): SeededAccount => ({
    id: bankId(),
    bban,
    iban: iban(bban),
    balanceMinor: OPENING_BALANCE_MINOR,
  });
  const debtors = BBANS.slice(0, DEBTORS).map(account);
  const creditor = { ...account(BBANS[DEBTORS]!), balanceMinor: 0n };
  // Authorised payments: no SCA matches the PSU again, so any installation key will do.
  const nationalIdHash = hashNationalId({ bytes: randomBytes(32) }, CUSTOMER_NUMBER);
  const psuKey = `nin:${nationalIdHash}`;
  return { customerId, debtors, creditor, nationalIdHash, psuKey, scope: duplicateHashScope(tppId, psuKey) };
}

/** Payment i, authorised at `at`: its payment row and its one transfer's. */
function duePayment(i: number, tppId: string, parties: Parties, at: string): DuePayment {
  const { creditor, psuKey, scope } = parties;
  const id = bankId();
  const debtor = parties.debtors[i % DEBTORS]!;
  const crossBorder = i % 2 === 0;
  const amountMinor = crossBorder ? 10_000n + BigInt(i % 1000) * 100n : 5_000n + BigInt(i % 1000) * 100n;
  const amount = `${amountMinor / 100n}.${String(amountMinor % 100n).padStart(2, '0')}`;
  const remittance = `Bench ${i}`;
  const creditorAccount = crossBorder ? FOREIGN_CREDITOR : creditor.bban;
  const creditorName = crossBorder ? 'Svenska Leverantör AB' : 'Bench Kreditor';
  const entry = {
    instructedAmount: { amount, currency: 'NOK' },
    creditorName,
    creditorAccount: crossBorder ? { iban: FOREIGN_CREDITOR } : { bban: creditor.bban },
    remittanceInformationUnstructured: remittance,
  };
  const body = crossBorder
    ? { ...entry, creditorAgent: 'ESSESESSXXX', debtorAccount: { bban: debtor.bban, currency: 'NOK' } }
    : { paymentInformationId: `PI-${i}`, debtorAccount: { bban: debtor.bban, currency: 'NOK' }, payments: [entry] };
  const fee = crossBorder ? CROSS_BORDER_FEE_MINOR : 0n;
  const key = duplicateKey({
    debtor: debtor.bban,
    creditor: creditorAccount,
    amount: { minor: amountMinor, currency: 'NOK' },
    executionDate: undefined,
    remittance,
  });
  return {
    id,
    debtor,
    crossBorder,
    amountMinor,
    fee,
    payment: paymentRow({ id, i, tppId, crossBorder, debtorBban: debtor.bban, fee, body, at }, parties),
    transfer: [
      id,
      0,
      tppId,
      psuKey,
      amountMinor,
      'NOK',
      creditorName,
      creditorAccount,
      key,
      duplicateHash(scope, key),
      scope,
      duplicateDay(new Date(at)),
      'ACTC',
      null,
      at,
    ],
  };
}

/** The payments row of payment i, in PAYMENT_COLUMNS' order. */
function paymentRow(
  payment: {
    id: string;
    i: number;
    tppId: string;
    crossBorder: boolean;
    debtorBban: string;
    fee: bigint;
    body: object;
    at: string;
  },
  parties: Parties,
): unknown[] {
  const { id, i, tppId, crossBorder, debtorBban, fee, body, at } = payment;
  return [
    id,
    tppId,
    tppId,
    crossBorder ? 'payments' : 'bulk-payments',
    crossBorder ? 'norwegian-cross-border-credit-transfers' : 'norwegian-domestic-credit-transfers',
    'ACTC',
    parties.psuKey,
    null,
    parties.nationalIdHash,
    null,
    'PRIVATE',
    debtorBban,
    null,
    'NOK',
    null,
    1,
    fee,
    'NOK',
    JSON.stringify(body),
    '[]',
    'https://tpp.example/cb',
    `bench-${i}`,
    null,
    null,
    at,
    at,
    parties.customerId,
    at,
  ];
}

/** The customer, its accounts, the payments and their transfers, in one transaction. */
function writeSeed(
  db: BetterSqlite3.Database,
  tppId: string,
  { customerId, debtors, creditor }: Parties,
  at: string,
  payments: unknown[][],
  transfers: unknown[][],
): void {
  db.transaction(() => {
    // In the TPP's own sandbox bank (migration 008), which its first request then fills with the default data set.
    db.prepare(
      'insert into customers (id, bank, customer_number, name, type, created_at, tpp_id) values (?, ?, ?, ?, ?, ?, ?)',
    ).run(customerId, tppId, CUSTOMER_NUMBER, 'Bench Kunde', 'PRIVATE', at, tppId);
    const insertAccount =
      db.prepare(`insert into accounts (id, bank, customer_id, bban, iban, currency, name, product, cash_account_type, credit_line_minor, balance_minor, created_at)
        values (?, ?, ?, ?, ?, 'NOK', 'Brukskonto', 'Brukskonto', 'CACC', 0, ?, ?)`);
    for (const a of [...debtors, creditor])
      insertAccount.run(a.id, tppId, customerId, a.bban, a.iban, a.balanceMinor, at);
    insertRows(db, 'payments', PAYMENT_COLUMNS, payments);
    insertRows(db, 'transfers', TRANSFER_COLUMNS, transfers);
  })();
}

const PAYMENT_COLUMNS = [
  'id',
  'tpp_id',
  'bank',
  'service',
  'product',
  'status',
  'psu_key',
  'psu_id',
  'psu_national_id_hash',
  'psu_corporate_id',
  'psu_context',
  'debtor_bban',
  'debtor_iban',
  'debtor_currency',
  'requested_execution_date',
  'entry_count',
  'fee_minor',
  'fee_currency',
  'body',
  'accept_fixes',
  'tpp_redirect_uri',
  'tpp_session_id',
  'funds_available',
  'status_reason',
  'created_at',
  'updated_at',
  'signed_by_customer_id',
  'authorised_at',
];
const TRANSFER_COLUMNS = [
  'payment_id',
  'seq',
  'tpp_id',
  'psu_key',
  'amount_minor',
  'currency',
  'creditor_name',
  'creditor_account',
  'duplicate_key',
  'duplicate_hash',
  'duplicate_scope',
  'duplicate_day',
  'status',
  'status_reason',
  'created_at',
];

function insertRows(db: BetterSqlite3.Database, table: string, columns: string[], rows: unknown[][]): void {
  const statement = (n: number) =>
    db.prepare(
      `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: n }, () => `(${columns.map(() => '?').join(', ')})`).join(', ')}`,
    );
  const full = statement(ROWS_PER_INSERT);
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    (chunk.length === ROWS_PER_INSERT ? full : statement(chunk.length)).run(chunk.flat());
  }
}
