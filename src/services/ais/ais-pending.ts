import type { Json } from '../../domain/json.js';
import { BANK_TRANSACTION_CODES, creditorNumbers, planExecution } from '../../domain/payment-execution.js';
import type { ReferenceRates } from '../../domain/reference-rates.js';
import type { AisAccount } from '../../store/ais-records.js';
import type { BankCore } from '../../core/bank-core.js';
import { accountBalances } from './ais-views.js';

/** Payments whose pending debits one balance read takes into account: the expected balance of a busy day. */
const PENDING_FOR_BALANCE = 1000;

/** A debit the next batch run will book on the account, as it will book it. */
export interface PendingEntry {
  amountMinor: bigint;
  currency: string;
  /** The date the batch run is to book it: its requested execution date, or today. */
  bookingDate: string;
  creditorName: string;
  creditorIban: string;
  creditorBban: string;
  remittance: string;
  ultimateDebtor: string;
  purposeCode: string;
  /** The payment's endToEndIdentification, as the batch run will book it; '' when none. */
  endToEndId: string;
  bankTransactionCode: string;
}

/**
 * What the payments authorised and not yet executed from an account will debit (docs/ais.md, "Booked
 * and pending"): each transfer and fee in the account's currency, planned as the batch run plans it
 * (the reference rates of today), and their sum, which the expected balance takes off. A payment the
 * run could not plan (a currency not traded) is left out: it will be rejected, not booked.
 */
export class AisPending {
  constructor(
    private readonly core: Pick<BankCore, 'pendingPayments'>,
    private readonly rates: ReferenceRates,
  ) {}

  /** An account's balances, the expected one less what the payments authorised and not yet executed will debit. */
  async balances(bank: string, account: AisAccount, today: string): Promise<Json[]> {
    const pending = await this.of(bank, account, today, PENDING_FOR_BALANCE);
    return accountBalances(account, pending.debitMinor, today);
  }

  async of(
    bank: string,
    account: AisAccount,
    today: string,
    limit: number,
  ): Promise<{ entries: PendingEntry[]; debitMinor: bigint }> {
    const entries: PendingEntry[] = [];
    let debitMinor = 0n;
    for (const payment of await this.core.pendingPayments(bank, account, limit)) {
      const plan = planExecution(
        {
          id: payment.id,
          product: payment.product,
          feeMinor: payment.feeMinor,
          feeCurrency: payment.feeCurrency,
          transfers: payment.transfers,
        },
        account,
        this.rates,
      );
      if (!plan.ok) continue;
      const bookingDate =
        payment.requestedExecutionDate !== undefined && payment.requestedExecutionDate > today
          ? payment.requestedExecutionDate
          : today;
      for (const planned of plan.transfers) {
        const creditor = creditorNumbers(planned.transfer.creditorAccount);
        debitMinor += planned.debitMinor;
        entries.push({
          amountMinor: planned.amountInAccountCurrency,
          currency: account.currency,
          bookingDate,
          creditorName: planned.transfer.creditorName,
          creditorIban: creditor.iban,
          creditorBban: creditor.bban,
          remittance: planned.transfer.remittance,
          ultimateDebtor: planned.transfer.ultimateDebtor,
          purposeCode: planned.transfer.purposeCode,
          endToEndId: planned.transfer.endToEndId,
          bankTransactionCode: planned.bankTransactionCode,
        });
        if (planned.feeInAccountCurrency > 0n) {
          entries.push({
            amountMinor: planned.feeInAccountCurrency,
            currency: account.currency,
            bookingDate,
            creditorName: 'Sandbox Bank ASA',
            creditorIban: '',
            creditorBban: '',
            remittance: 'Fee',
            ultimateDebtor: '',
            purposeCode: '',
            endToEndId: '',
            bankTransactionCode: BANK_TRANSACTION_CODES.fee,
          });
        }
      }
    }
    return { entries, debitMinor };
  }
}
