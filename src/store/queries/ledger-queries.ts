import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Account } from '../../domain/bank.js';
import { type ExecutionPlan, INSUFFICIENT_FUNDS, type PaymentToExecute, type TransferToExecute, executedStatus, BANK_TRANSACTION_CODES } from '../../domain/payment-execution.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database } from '../database.js';
import { findAccount } from './bank-queries.js';

export type Planner = (payment: PaymentToExecute, debtor: Account | undefined) => ExecutionPlan;

export interface ExecutionOutcome {
  paymentId: string;
  status: TransactionStatus;
}

/** Payments authorised and due on a date (no date, or a date not after it), oldest authorisation first. */
export async function findDuePaymentIds(db: Kysely<Database>, date: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('payments').select('id')
    .where('status', 'in', ['ACTC', 'PDNG'])
    .where((eb) => eb.or([eb('requested_execution_date', 'is', null), eb('requested_execution_date', '<=', date)]))
    .orderBy('authorised_at').orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Executes payments in one transaction: each is first claimed (ACTC/PDNG → ACSP), so a payment that
 * another run or instance took, or that a killed run already committed, is skipped; every debit is
 * conditional on the balance plus credit line covering it, so no account is overdrawn. Nothing of a
 * run that dies part-way is left half done: the transaction commits all of its payments or none.
 */
export async function executePayments(db: Kysely<Database>, paymentIds: readonly string[], bookingDate: string, at: Date, plan: Planner): Promise<ExecutionOutcome[]> {
  return db.transaction().execute(async (trx) => {
    const outcomes: ExecutionOutcome[] = [];
    const now = at.toISOString();
    for (const paymentId of paymentIds) {
      const claimed = await trx.updateTable('payments').set({ status: 'ACSP', updated_at: now })
        .where('id', '=', paymentId).where('status', 'in', ['ACTC', 'PDNG']).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      const payment = await trx.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow();
      const transfers = await trx.selectFrom('transfers').selectAll().where('payment_id', '=', paymentId).orderBy('seq').execute();
      const entries = entriesOf(payment.body, payment.service);
      const toExecute: PaymentToExecute = {
        id: paymentId, product: payment.product, feeMinor: BigInt(payment.fee_minor), feeCurrency: payment.fee_currency,
        transfers: transfers.map((t) => ({
          seq: Number(t.seq), amountMinor: BigInt(t.amount_minor), currency: t.currency, creditorName: t.creditor_name, creditorAccount: t.creditor_account,
          remittance: entries[Number(t.seq)]?.remittance ?? '', ultimateDebtor: entries[Number(t.seq)]?.ultimateDebtor ?? '', purposeCode: entries[Number(t.seq)]?.purposeCode ?? '',
        })),
      };
      const debtor = await findAccount(trx, { bban: payment.debtor_bban ?? undefined, iban: payment.debtor_iban ?? undefined });
      const planned = plan(toExecute, debtor);
      if (!planned.ok || debtor === undefined) {
        await finish(trx, paymentId, 'RJCT', undefined, planned.ok ? 'the debtor account is not an account in this bank' : planned.reason, transfers.map(() => 'RJCT'), now);
        outcomes.push({ paymentId, status: 'RJCT' });
        continue;
      }
      const debtorName = (await trx.selectFrom('customers').select('name').where('id', '=', debtor.customerId).executeTakeFirst())?.name ?? '';
      const transferStatuses: TransactionStatus[] = [];
      for (const step of planned.transfers) {
        const debited = await trx.updateTable('accounts')
          .set((eb) => ({ balance_minor: eb('balance_minor', '-', step.debitMinor), transaction_count: sql<number>`transaction_count + ${step.feeInAccountCurrency > 0n ? 2 : 1}` }))
          .where('id', '=', debtor.id)
          .where((eb) => eb(eb('balance_minor', '+', eb.ref('credit_line_minor')), '>=', step.debitMinor))
          .returning('transaction_count')
          .executeTakeFirst();
        if (debited === undefined) {
          transferStatuses.push('RJCT');
          continue;
        }
        let seq = Number(debited.transaction_count) - (step.feeInAccountCurrency > 0n ? 1 : 0);
        const creditor = await creditAccount(trx, step.transfer, step.transfer.amountMinor);
        await insertTransaction(trx, {
          accountId: debtor.id, seq, amountMinor: -step.amountInAccountCurrency, currency: debtor.currency, bookingDate, transfer: step.transfer,
          creditorIban: creditor?.account.iban ?? ibanOf(step.transfer.creditorAccount), creditorBban: creditor?.account.bban ?? bbanOf(step.transfer.creditorAccount),
          debtorName, debtorIban: debtor.iban, debtorBban: debtor.bban, code: step.bankTransactionCode, paymentId, now,
        });
        if (step.feeInAccountCurrency > 0n) {
          seq += 1;
          await insertTransaction(trx, {
            accountId: debtor.id, seq, amountMinor: -step.feeInAccountCurrency, currency: debtor.currency, bookingDate,
            transfer: { ...step.transfer, creditorName: 'Sandbox Bank ASA', remittance: `Fee, payment ${paymentId}` },
            creditorIban: '', creditorBban: '', debtorName, debtorIban: debtor.iban, debtorBban: debtor.bban, code: BANK_TRANSACTION_CODES.fee, paymentId, now,
          });
        }
        if (creditor !== undefined) {
          await insertTransaction(trx, {
            accountId: creditor.account.id, seq: creditor.seq, amountMinor: step.transfer.amountMinor, currency: creditor.account.currency, bookingDate, transfer: step.transfer,
            creditorIban: creditor.account.iban, creditorBban: creditor.account.bban, debtorName, debtorIban: debtor.iban, debtorBban: debtor.bban,
            code: BANK_TRANSACTION_CODES.domesticCredit, paymentId, now,
          });
        }
        transferStatuses.push('ACSC');
      }
      const executed = transferStatuses.filter((s) => s === 'ACSC').length;
      const status = executedStatus(executed, transferStatuses.length);
      await finish(trx, paymentId, status, executed > 0, status === 'ACSC' ? undefined : INSUFFICIENT_FUNDS, transferStatuses, now);
      outcomes.push({ paymentId, status });
    }
    return outcomes;
  });
}

/** Credits the creditor account when it is in this bank and in the transfer's currency; returns it with the credit's seq. */
async function creditAccount(trx: Kysely<Database>, transfer: TransferToExecute, amountMinor: bigint): Promise<{ account: Account; seq: number } | undefined> {
  const key = transfer.creditorAccount;
  const account = await findAccount(trx, /^[A-Z]{2}\d{2}/.test(key) ? { iban: key } : { bban: key });
  if (account === undefined || account.currency !== transfer.currency) return undefined;
  const credited = await trx.updateTable('accounts')
    .set((eb) => ({ balance_minor: eb('balance_minor', '+', amountMinor), transaction_count: sql<number>`transaction_count + 1` }))
    .where('id', '=', account.id).returning('transaction_count').executeTakeFirstOrThrow();
  return { account, seq: Number(credited.transaction_count) };
}

interface NewTransaction {
  accountId: string;
  seq: number;
  amountMinor: bigint;
  currency: string;
  bookingDate: string;
  transfer: TransferToExecute;
  creditorIban: string;
  creditorBban: string;
  debtorName: string;
  debtorIban: string;
  debtorBban: string;
  code: string;
  paymentId: string;
  now: string;
}

async function insertTransaction(trx: Kysely<Database>, t: NewTransaction): Promise<void> {
  await trx.insertInto('account_transactions').values({
    id: `enc!!${randomBytes(18).toString('base64url')}`, account_id: t.accountId, seq: t.seq, amount_minor: t.amountMinor, currency: t.currency,
    booking_date: t.bookingDate, value_date: t.bookingDate, remittance: t.transfer.remittance, creditor_name: t.transfer.creditorName,
    creditor_iban: t.creditorIban, creditor_bban: t.creditorBban, debtor_name: t.debtorName, debtor_iban: t.debtorIban, debtor_bban: t.debtorBban,
    bank_transaction_code: t.code, ultimate_debtor: t.transfer.ultimateDebtor, ultimate_creditor: '', purpose_code: t.transfer.purposeCode,
    payment_id: t.paymentId, created_at: t.now,
  }).execute();
}

async function finish(trx: Kysely<Database>, paymentId: string, status: TransactionStatus, fundsAvailable: boolean | undefined, reason: string | undefined, transferStatuses: TransactionStatus[], now: string): Promise<void> {
  await trx.updateTable('payments').set({
    status, status_reason: reason ?? null, updated_at: now, funds_available: fundsAvailable === undefined ? null : fundsAvailable ? 1 : 0,
  }).where('id', '=', paymentId).execute();
  for (const [seq, transferStatus] of transferStatuses.entries()) {
    await trx.updateTable('transfers').set({ status: transferStatus, status_reason: transferStatus === 'RJCT' ? (reason ?? null) : null })
      .where('payment_id', '=', paymentId).where('seq', '=', seq).execute();
  }
}

/** Remittance, ultimate debtor and purpose of each transfer, from the body as submitted. */
function entriesOf(body: string, service: string): { remittance: string; ultimateDebtor: string; purposeCode: string }[] {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const read = (entry: Record<string, unknown>) => {
    const structured = [entry.remittanceInformationStructured, ...((entry.remittanceInformationStructuredArray as unknown[] | undefined) ?? [])]
      .filter((r): r is { reference: string } => typeof r === 'object' && r !== null && typeof (r as { reference?: unknown }).reference === 'string')
      .map((r) => r.reference);
    return {
      remittance: typeof entry.remittanceInformationUnstructured === 'string' ? entry.remittanceInformationUnstructured : structured.join(' '),
      ultimateDebtor: typeof entry.ultimateDebtor === 'string' ? entry.ultimateDebtor : '',
      purposeCode: typeof entry.purposeCode === 'string' ? entry.purposeCode : '',
    };
  };
  return service === 'bulk-payments' ? ((parsed.payments as Record<string, unknown>[]) ?? []).map(read) : [read(parsed)];
}

function ibanOf(account: string): string {
  return /^[A-Z]{2}\d{2}/.test(account) ? account : '';
}

function bbanOf(account: string): string {
  return /^[A-Z]{2}\d{2}/.test(account) ? (account.startsWith('NO') ? account.slice(4) : '') : account;
}

// ---- The sandbox's business clock and the batch runs ----

export async function readClockOffset(db: Kysely<Database>): Promise<bigint> {
  const row = await db.selectFrom('sandbox_clock').select('offset_ms').where('id', '=', 1).executeTakeFirst();
  return row === undefined ? 0n : BigInt(row.offset_ms);
}

export async function writeClockOffset(db: Kysely<Database>, offsetMs: bigint, at: Date): Promise<void> {
  await db.insertInto('sandbox_clock').values({ id: 1, offset_ms: offsetMs, updated_at: at.toISOString() })
    .onConflict((oc) => oc.column('id').doUpdateSet({ offset_ms: offsetMs, updated_at: at.toISOString() })).execute();
}

/** Claims a batch slot for this instance; false when another run (or instance) has it already. */
export async function claimBatchRun(db: Kysely<Database>, slot: string, at: Date): Promise<boolean> {
  const result = await db.insertInto('batch_runs').values({ slot, started_at: at.toISOString(), finished_at: null, executed: 0, rejected: 0 })
    .onConflict((oc) => oc.column('slot').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function finishBatchRun(db: Kysely<Database>, slot: string, executed: number, rejected: number, at: Date): Promise<void> {
  await db.updateTable('batch_runs').set({ finished_at: at.toISOString(), executed, rejected }).where('slot', '=', slot).execute();
}

export async function lastBatchSlot(db: Kysely<Database>): Promise<string | undefined> {
  return (await db.selectFrom('batch_runs').select('slot').where('slot', 'not like', 'manual:%').orderBy('slot', 'desc').limit(1).executeTakeFirst())?.slot;
}
