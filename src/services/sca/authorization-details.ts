import type { Currency } from '../../domain/currency.js';
import { formatAmount } from '../../domain/money.js';
import type { Authorisation, ScaPayment } from '../../store/sca-records.js';
import type { AuthorizationDetail } from './identity-provider-client.js';

/**
 * What the PSU authorises, as RFC 9396 `authorization_details` for the identity provider to show
 * and sign: PSD2's dynamic linking (RTS article 5) ties the authentication to the amount and the
 * payee. One payment with one transfer is described as it is; several (a bulk, a basket) by their
 * total and count, and a standing order with its schedule. A consent is bank-offered: the PSU picks
 * the accounts on the bank's page after logging in, so its access lists are empty (Berlin Group's
 * bank-offered consent). A PSU session authorises nothing: no details.
 */
export function authorizationDetailsOf(
  authorisation: Authorisation,
  payments: readonly ScaPayment[],
): AuthorizationDetail[] | undefined {
  if (authorisation.kind === 'session') return undefined;
  if (authorisation.kind === 'consent')
    return [
      {
        type: 'account_information',
        actions: ['read'],
        access: { accounts: [], balances: [], transactions: [] },
        ...(authorisation.psuCorporateId === undefined ? {} : { psuCorporateId: authorisation.psuCorporateId }),
      },
    ];
  const transfers = payments.flatMap((p) => p.transfers);
  const detail: AuthorizationDetail = {
    type: 'payment_initiation',
    actions: [authorisation.kind === 'cancellation' ? 'cancel' : 'initiate'],
    ...amounts(transfers),
  };
  const creditors = new Set(transfers.map((t) => `${t.creditorName}\n${t.creditorAccount}`));
  if (creditors.size === 1) {
    detail.creditorName = transfers[0]!.creditorName;
    detail.creditorAccount = accountReference(transfers[0]!.creditorAccount);
  }
  const debtors = new Set(payments.map((p) => p.debtorIban ?? p.debtorBban));
  if (debtors.size === 1 && payments[0] !== undefined) {
    const debtor = payments[0].debtorIban ?? payments[0].debtorBban;
    if (debtor !== undefined) detail.debtorAccount = accountReference(debtor);
  }
  if (transfers.length === 1) {
    const remittance = payments[0]!.remittance.join(' ');
    if (remittance !== '') detail.remittanceInformationUnstructured = remittance;
  } else {
    detail.numberOfPayments = transfers.length;
    detail.remittanceInformationUnstructured = `${transfers.length} payments, ${totalsText(transfers)} in all`;
  }
  const schedule = payments.length === 1 ? payments[0]!.schedule : undefined;
  if (schedule !== undefined) {
    detail.startDate = schedule.startDate;
    if (schedule.endDate !== undefined) detail.endDate = schedule.endDate;
    detail.frequency = schedule.frequency;
    detail.executionRule = schedule.executionRule;
    if (schedule.day !== undefined) detail.dayOfExecution = String(schedule.day);
    if (schedule.months !== undefined) detail.monthsOfExecution = schedule.months.map(String);
  }
  return [detail];
}

type Transfer = ScaPayment['transfers'][number];

/** The total per currency, in the order the currencies first appear. */
function totals(transfers: readonly Transfer[]): { amount: string; currency: string }[] {
  const sums = new Map<string, bigint>();
  for (const t of transfers) sums.set(t.currency, (sums.get(t.currency) ?? 0n) + t.amountMinor);
  return [...sums].map(([currency, minor]) => ({ amount: formatAmount(minor, currency as Currency), currency }));
}

/** One currency: instructedAmount, its total. Several (a basket of cross-border payments): one total for each. */
function amounts(transfers: readonly Transfer[]): Record<string, unknown> {
  const all = totals(transfers);
  return all.length === 1 ? { instructedAmount: all[0] } : { instructedAmounts: all };
}

function totalsText(transfers: readonly Transfer[]): string {
  return totals(transfers)
    .map((t) => `${t.currency} ${t.amount}`)
    .join(' and ');
}

/** An IBAN begins with its country's letters; a Norwegian BBAN is digits. */
function accountReference(account: string): { iban: string } | { bban: string } {
  return /^[A-Z]{2}\d{2}/.test(account) ? { iban: account } : { bban: account };
}
