import { randomBytes } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { type BookedPayment, creditorNumbers } from '../../domain/payment-execution.js';
import { SORTED_BASE64URL, timePart } from '../../domain/time-ordered-id.js';
import type { AccountTransactionTable, Database } from '../database.js';
import { insertRecords } from './insert-rows.js';
import { ACCOUNT_TRANSACTION_INSERT_COLUMNS } from './account-transaction-columns.js';

/** The names of the customers who hold debtor accounts, for the transactions a run books. */
export async function customerNames(
  trx: Kysely<Database>,
  customerIds: readonly string[],
): Promise<Map<string, string>> {
  const ids = [...new Set(customerIds)];
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom('customers').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Every booking as an account transaction; the debtor side is the payment's debtor account. As a
 * TPP's test transactions (sandbox-rules.ts transactionDirection), the side the account is on says
 * debit or credit, and the amount is the amount moved, positive (the ledger's signed amount changed
 * the balance): a debit has the account as debtorAccount, a credit as creditorAccount.
 */
export async function insertBookings(
  trx: Kysely<Database>,
  booked: readonly BookedPayment[],
  debtorNames: Map<string, string>,
  bookingDate: string,
  now: string,
): Promise<void> {
  const rows: Insertable<AccountTransactionTable>[] = [];
  const ids = new LedgerIds(booked.reduce((n, b) => n + b.bookings.length, 0));
  for (const payment of booked) {
    const debtor = payment.debtor;
    if (debtor === undefined) continue;
    const debtorName = debtorNames.get(debtor.customerId) ?? '';
    for (const b of payment.bookings) {
      // The creditor's numbers as this bank knows them when the transfer was credited here, else as the payment gives them.
      const credited =
        b.kind === 'credit'
          ? b.account
          : payment.bookings.find((x) => x.kind === 'credit' && x.transfer === b.transfer)?.account;
      const given = creditorNumbers(b.transfer.creditorAccount);
      const creditorIban = b.kind === 'fee' ? '' : (credited?.iban ?? given.iban);
      const creditorBban = b.kind === 'fee' ? '' : (credited?.bban ?? given.bban);
      rows.push({
        id: ids.next(),
        account_id: b.account.id,
        seq: b.seq,
        amount_minor: b.amountMinor < 0n ? -b.amountMinor : b.amountMinor,
        currency: b.account.currency,
        booking_date: bookingDate,
        value_date: bookingDate,
        remittance: b.kind === 'fee' ? `Fee, payment ${payment.paymentId}` : b.transfer.remittance,
        creditor_name: b.kind === 'fee' ? 'Sandbox Bank ASA' : b.transfer.creditorName,
        creditor_iban: creditorIban,
        creditor_bban: creditorBban,
        debtor_name: debtorName,
        debtor_iban: debtor.iban,
        debtor_bban: debtor.bban,
        bank_transaction_code: b.bankTransactionCode,
        ultimate_debtor: b.transfer.ultimateDebtor,
        ultimate_creditor: '',
        purpose_code: b.transfer.purposeCode,
        end_to_end_id: b.kind === 'fee' ? '' : b.transfer.endToEndId,
        payment_id: payment.paymentId,
        created_at: now,
      });
    }
  }
  await insertRecords(trx, 'account_transactions', ACCOUNT_TRANSACTION_INSERT_COLUMNS, rows);
}

/**
 * Ids of booked transactions, in the form of every id the bank gives (`enc!!` and 24 base64url
 * characters): the first 8 encode the milliseconds of the clock, the other 16 are random (96 bits), as
 * timeOrderedId's, with the random bytes taken ahead for a whole run.
 * Ids made later sort after earlier ones, so a chunk's rows go to the end of the primary key's index
 * instead of to as many random pages of it as there are rows, each written whole at each commit: a
 * large part of a batch run's time with wholly random ids (bench/README.md, "Figures behind the
 * source's reasons").
 */
class LedgerIds {
  private readonly random: Buffer;
  private readonly prefix: string;
  private used = 0;

  constructor(count: number) {
    this.random = randomBytes(16 * count);
    this.prefix = `enc!!${timePart(Date.now())}`;
  }

  next(): string {
    let id = this.prefix;
    for (let k = 16 * this.used; k < 16 * (this.used + 1); k++) id += SORTED_BASE64URL[this.random[k]! & 63]!;
    this.used += 1;
    return id;
  }
}
