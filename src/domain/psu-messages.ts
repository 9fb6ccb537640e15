import type { Language } from './language.js';
import { formatAmount } from './money.js';
import type { Money } from './money.js';

/** Texts for the PSU (psuMessage), in the languages the bank speaks: at most 512 characters each. */
export const PSU_MESSAGES = {
  crossBorderReceived: {
    en: (amount: Money, creditor: string) =>
      `Your cross-border payment of ${amount.currency} ${formatAmount(amount.minor, amount.currency)} to ${creditor} is received. Approve it in your bank to send it.`,
    nb: (amount: Money, creditor: string) =>
      `Utenlandsbetalingen på ${amount.currency} ${formatAmount(amount.minor, amount.currency).replace('.', ',')} til ${creditor} er mottatt. Godkjenn den i banken for å sende den.`,
  },
  domesticReceived: {
    en: (amount: Money, creditor: string) =>
      `Your payment of ${amount.currency} ${formatAmount(amount.minor, amount.currency)} to ${creditor} is received. Approve it in your bank to send it.`,
    nb: (amount: Money, creditor: string) =>
      `Betalingen på ${amount.currency} ${formatAmount(amount.minor, amount.currency).replace('.', ',')} til ${creditor} er mottatt. Godkjenn den i banken for å sende den.`,
  },
  bulkReceived: {
    en: (count: number, total: Money) =>
      `Your bulk payment of ${count} ${count === 1 ? 'payment' : 'payments'}, ${total.currency} ${formatAmount(total.minor, total.currency)} in all, is received. Approve it in your bank to send it.`,
    nb: (count: number, total: Money) =>
      `Massebetalingen med ${count} ${count === 1 ? 'betaling' : 'betalinger'}, ${total.currency} ${formatAmount(total.minor, total.currency).replace('.', ',')} til sammen, er mottatt. Godkjenn den i banken for å sende den.`,
  },
  standingOrderReceived: {
    en: (amount: Money, creditor: string, firstDate: string) =>
      `Your standing order of ${amount.currency} ${formatAmount(amount.minor, amount.currency)} to ${creditor}, first on ${firstDate}, is received. Approve it in your bank to start it.`,
    nb: (amount: Money, creditor: string, firstDate: string) =>
      `Den faste betalingen på ${amount.currency} ${formatAmount(amount.minor, amount.currency).replace('.', ',')} til ${creditor}, første gang ${firstDate}, er mottatt. Godkjenn den i banken for å starte den.`,
  },
} satisfies Record<string, Record<Language, (...args: never[]) => string>>;
