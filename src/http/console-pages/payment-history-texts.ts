import type { Language } from '../../domain/language.js';
import type { ScaStatus } from '../../domain/sca.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';

/** The texts of a payment's statuses and of its history on the console's payment page, in English and Norwegian Bokmål. */
export interface PaymentHistoryTexts {
  status: Record<TransactionStatus, string>;
  history: {
    created: (status: string) => string;
    sca: (object: 'payment' | 'basket' | 'cancellation', id: string, status: string) => string;
    authorised: (status: string) => string;
    booked: (
      direction: 'debit' | 'credit',
      account: string,
      amount: string,
      bookingDate: string,
      code: string,
    ) => string;
    executed: (executionDate: string, status: string) => string;
    status: (status: string) => string;
    held: (status: string, until: string, then: string) => string;
    reason: (reason: string) => string;
  };
  scaStatus: Partial<Record<ScaStatus, string>>;
}

const en: PaymentHistoryTexts = {
  status: {
    RCVD: 'received: waiting for the PSU’s approval',
    ACTC: 'authorised: waiting for a batch run',
    PDNG: 'pending: waiting for its execution date, or held',
    ACSC: 'executed',
    RJCT: 'rejected',
    CANC: 'cancelled',
    PART: 'partly executed',
    ACCP: 'accepted',
    ACSP: 'in settlement',
    ACWC: 'accepted with change',
    ACWP: 'accepted, not yet executed',
  },
  history: {
    created: (status) => `Created: ${status}`,
    sca: (object, id, status) =>
      `${object === 'payment' ? 'SCA' : object === 'basket' ? 'SCA of its signing basket' : 'SCA of its cancellation'} ${id}: ${status}`,
    authorised: (status) => `Approved by the PSU: ${status}`,
    booked: (direction, account, amount, bookingDate, code) =>
      `Booked on ${account}: ${direction === 'debit' ? 'debit' : 'credit'} ${amount}, booking date ${bookingDate} (${code})`,
    executed: (executionDate, status) => `Standing order executed for ${executionDate}: ${status}`,
    status: (status) => `Status ${status}`,
    held: (status, until, then) => `Held by a scenario: ${status} until ${until}, then ${then}`,
    reason: (reason) => `Reason: ${reason}`,
  },
  scaStatus: {
    started: 'started (link issued)',
    psuAuthenticated: 'PSU logged in',
    finalised: 'finalised (approved)',
    failed: 'failed (declined, not authenticated, or the link expired)',
  },
};

const nb: PaymentHistoryTexts = {
  status: {
    RCVD: 'mottatt: venter på kundens godkjenning',
    ACTC: 'godkjent: venter på en batchkjøring',
    PDNG: 'venter på utførelsesdatoen, eller holdt tilbake',
    ACSC: 'utført',
    RJCT: 'avvist',
    CANC: 'kansellert',
    PART: 'delvis utført',
    ACCP: 'akseptert',
    ACSP: 'under oppgjør',
    ACWC: 'akseptert med endring',
    ACWP: 'akseptert, ikke utført ennå',
  },
  history: {
    created: (status) => `Opprettet: ${status}`,
    sca: (object, id, status) =>
      `${object === 'payment' ? 'SCA' : object === 'basket' ? 'SCA av signeringskurven' : 'SCA av kanselleringen'} ${id}: ${status}`,
    authorised: (status) => `Godkjent av kunden: ${status}`,
    booked: (direction, account, amount, bookingDate, code) =>
      `Postert på ${account}: ${direction === 'debit' ? 'belastet' : 'godskrevet'} ${amount}, bokføringsdato ${bookingDate} (${code})`,
    executed: (executionDate, status) => `Fast betaling utført for ${executionDate}: ${status}`,
    status: (status) => `Status ${status}`,
    held: (status, until, then) => `Holdt av et scenario: ${status} til ${until}, deretter ${then}`,
    reason: (reason) => `Årsak: ${reason}`,
  },
  scaStatus: {
    started: 'startet (lenke gitt)',
    psuAuthenticated: 'kunden logget inn',
    finalised: 'fullført (godkjent)',
    failed: 'mislyktes (avvist, ikke autentisert, eller lenken utløp)',
  },
};

export const PAYMENT_HISTORY_TEXTS: Record<Language, PaymentHistoryTexts> = { en, nb };
