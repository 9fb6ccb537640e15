import type { Language } from '../../domain/language.js';
import { CONSOLE_MESSAGE_TEXTS, type ConsoleMessageTexts } from './console-message-texts.js';
import { PAYMENT_HISTORY_TEXTS, type PaymentHistoryTexts } from './payment-history-texts.js';

/** What an action did, told on the page it leads back to. */
export type ConsoleNotice =
  | { kind: 'clock-moved'; batchRuns: number; executed: number; rejected: number }
  | { kind: 'batch-run'; executed: number; rejected: number }
  | { kind: 'reset' }
  | { kind: 'snapshot-saved' }
  | { kind: 'snapshot-restored' }
  | { kind: 'snapshot-deleted' }
  | { kind: 'scenario-armed' }
  | { kind: 'scenario-disarmed' }
  | { kind: 'notification-resent' };

/** Every text of the console's pages, in English and Norwegian Bokmål, as the SCA pages have theirs. */
export interface ConsoleTexts extends PaymentHistoryTexts {
  console: string;
  sandboxBanner: string;
  skip: string;
  nav: {
    overview: string;
    customers: string;
    payments: string;
    consents: string;
    snapshots: string;
    scenarios: string;
    notifications: string;
    label: string;
  };
  signOut: string;
  signedInAs: (tppId: string) => string;
  title: {
    overview: string;
    customers: string;
    payments: string;
    payment: string;
    consents: string;
    snapshots: string;
    scenarios: string;
    notifications: string;
  };
  clock: {
    heading: string;
    now: string;
    today: string;
    ahead: string;
    batchTimes: string;
    nextBatchRun: string;
    timeZoneHint: string;
    moveLabel: string;
    unitLabel: string;
    hours: string;
    days: string;
    move: string;
    moveHint: string;
    runBatch: string;
    runBatchHint: string;
    badAmount: (max: number, unit: string) => string;
  };
  offset: (days: number, hours: number, minutes: number) => string;
  reset: { heading: string; hint: string; confirm: string; button: string; confirmNeeded: string };
  notice: (notice: ConsoleNotice) => string;
  actionFailed: string;
  customers: {
    intro: string;
    none: string;
    more: (shown: number) => string;
    customerNumber: string;
    type: { PRIVATE: string; CORPORATE: string };
    accounts: string;
    noAccounts: string;
    cards: string;
    balance: string;
    creditLine: string;
    creditLimit: string;
    iban: string;
  };
  payments: {
    intro: (shown: number) => string;
    none: string;
    product: string;
    amount: string;
    fee: string;
    from: string;
    to: string;
    entries: (count: number) => string;
    created: string;
    executionDate: string;
    /** The label of a payment's status reason. */
    reason: string;
    basket: string;
    status: string;
    history: string;
    historyHint: string;
    back: string;
  };
  consents: {
    intro: (shown: number) => string;
    none: string;
    status: Record<string, string>;
    customer: string;
    notYetGiven: string;
    session: string;
    shares: string;
    nothingShared: string;
    card: string;
    validUntil: string;
    scaAt: string;
    created: string;
  };
  messages: ConsoleMessageTexts;
  howToOpen: string;
  /** After a link opened from another web site, whose redirect the browser sent without the SameSite=Strict cookie. */
  goOn: string;
  backToConsole: string;
}

/** A number with its noun, one or many. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

const en: ConsoleTexts = {
  console: 'Sandbox Bank – console',
  sandboxBanner: 'Sandbox: test data only. No real money moves.',
  skip: 'Skip to the content',
  nav: {
    label: 'Console',
    overview: 'Clock and actions',
    customers: 'Customers and accounts',
    payments: 'Payments',
    consents: 'Consents',
    snapshots: 'Snapshots',
    scenarios: 'Scenarios',
    notifications: 'Notifications',
  },
  signOut: 'Sign out',
  signedInAs: (tppId) => `The sandbox bank of ${tppId}`,
  title: {
    overview: 'Your sandbox bank',
    customers: 'Customers and accounts',
    payments: 'Payments',
    payment: 'Payment',
    consents: 'Consents',
    snapshots: 'Snapshots',
    scenarios: 'Scenarios',
    notifications: 'Notifications',
  },
  clock: {
    heading: 'The clock',
    now: 'Now',
    today: 'Business date',
    ahead: 'Ahead of the wall clock',
    batchTimes: 'Batch runs each day',
    nextBatchRun: 'Next batch run',
    timeZoneHint: 'Times are Norwegian time (Europe/Oslo), by your bank’s own clock.',
    moveLabel: 'Move the clock forward by',
    unitLabel: 'Unit',
    hours: 'hours',
    days: 'days',
    move: 'Move the clock',
    moveHint: 'The batch runs the move passes run on the way, in order.',
    runBatch: 'Run the batch now',
    runBatchHint: 'Executes every authorised payment that is due, without waiting for the next batch run.',
    badAmount: (max, unit) => `Give a whole number of ${unit} from 1 to ${max}.`,
  },
  offset: (days, hours, minutes) => `${days} d ${hours} h ${minutes} min`,
  reset: {
    heading: 'Reset the bank',
    hint: 'Puts your bank back to the default data set: your customers, accounts, payments and consents are deleted. The clock stays where it is.',
    confirm: 'Yes, delete my test data',
    button: 'Reset the bank',
    confirmNeeded: 'Tick the box to confirm that your test data is to be deleted.',
  },
  notice: (notice) => {
    switch (notice.kind) {
      case 'clock-moved':
        return `The clock moved. ${count(notice.batchRuns, 'batch run', 'batch runs')} ran on the way: ${count(notice.executed, 'payment', 'payments')} executed, ${notice.rejected} rejected.`;
      case 'batch-run':
        return `The batch ran: ${count(notice.executed, 'payment', 'payments')} executed, ${notice.rejected} rejected.`;
      case 'reset':
        return 'Your bank is back to the default data set.';
      case 'snapshot-saved':
        return 'The snapshot is saved.';
      case 'snapshot-restored':
        return 'Your bank is back as the snapshot holds it.';
      case 'snapshot-deleted':
        return 'The snapshot is deleted.';
      case 'scenario-armed':
        return 'The scenario is armed.';
      case 'scenario-disarmed':
        return 'The scenario is disarmed.';
      case 'notification-resent':
        return 'The notification is being sent again.';
    }
  },
  actionFailed: 'That did not work:',
  customers: {
    intro: 'The customers of your bank, the default data set first, with their accounts and card accounts.',
    none: 'Your bank has no customers. Reset it for the default data set, or create some with the API.',
    more: (shown) => `Only the first ${shown} customers are shown; read the others with GET /v1/sandbox/customers.`,
    customerNumber: 'Customer number',
    type: { PRIVATE: 'Private', CORPORATE: 'Corporate' },
    accounts: 'Accounts',
    noAccounts: 'No accounts.',
    cards: 'Card accounts',
    balance: 'Balance',
    creditLine: 'Credit line',
    creditLimit: 'Credit limit',
    iban: 'IBAN',
  },
  payments: {
    intro: (shown) => `Your bank’s payments, newest first (at most ${shown}).`,
    none: 'No payments yet. Create one with the API (README, “Your first signed call”).',
    product: 'Product',
    amount: 'Amount',
    fee: 'Fee',
    from: 'From',
    to: 'To',
    entries: (count) => `${count} payments`,
    created: 'Created',
    executionDate: 'Execution date',
    reason: 'Reason',
    basket: 'Signing basket',
    status: 'Status',
    history: 'History',
    historyHint:
      'Read from what the bank stores about the payment: its creation, each authorisation, its approval, its bookings and its last status.',
    back: 'All payments',
  },
  ...PAYMENT_HISTORY_TEXTS.en,
  consents: {
    intro: (shown) => `Your bank’s account-information consents, newest first (at most ${shown}).`,
    none: 'No consents yet. Ask for one with POST /v1/bank-offered-consents (docs/ais.md).',
    status: {
      received: 'received: waiting for the PSU',
      valid: 'valid',
      rejected: 'rejected',
      replaced: 'replaced by a later consent',
      expired: 'expired: its SCA is 180 days old',
      revokedByPsu: 'withdrawn by the PSU',
      terminatedByTpp: 'ended by the TPP',
    },
    customer: 'Given by',
    notYetGiven: 'not given yet',
    session: 'TPP-Session-ID',
    shares: 'Shares',
    nothingShared: 'nothing',
    card: 'card',
    validUntil: 'Valid until',
    scaAt: 'SCA',
    created: 'Asked for',
  },
  messages: CONSOLE_MESSAGE_TEXTS.en,
  howToOpen: 'In your TPP’s project, with TPP_BASE_URL set to this sandbox:',
  goOn: 'Opened a console link from another web site just now? Go on to the console.',
  backToConsole: 'Back to the console',
};

const nb: ConsoleTexts = {
  console: 'Sandbox Bank – konsoll',
  sandboxBanner: 'Sandkasse: bare testdata. Ingen ekte penger flyttes.',
  skip: 'Gå til innholdet',
  nav: {
    label: 'Konsoll',
    overview: 'Klokke og handlinger',
    customers: 'Kunder og kontoer',
    payments: 'Betalinger',
    consents: 'Samtykker',
    snapshots: 'Øyeblikksbilder',
    scenarios: 'Scenarioer',
    notifications: 'Varsler',
  },
  signOut: 'Logg ut',
  signedInAs: (tppId) => `Sandkassebanken til ${tppId}`,
  title: {
    overview: 'Sandkassebanken din',
    customers: 'Kunder og kontoer',
    payments: 'Betalinger',
    payment: 'Betaling',
    consents: 'Samtykker',
    snapshots: 'Øyeblikksbilder',
    scenarios: 'Scenarioer',
    notifications: 'Varsler',
  },
  clock: {
    heading: 'Klokken',
    now: 'Nå',
    today: 'Bankdag',
    ahead: 'Foran veggklokken',
    batchTimes: 'Batchkjøringer hver dag',
    nextBatchRun: 'Neste batchkjøring',
    timeZoneHint: 'Tidene er norsk tid (Europe/Oslo), etter bankens egen klokke.',
    moveLabel: 'Flytt klokken fram med',
    unitLabel: 'Enhet',
    hours: 'timer',
    days: 'dager',
    move: 'Flytt klokken',
    moveHint: 'Batchkjøringene flyttingen passerer, kjøres underveis, i rekkefølge.',
    runBatch: 'Kjør batchen nå',
    runBatchHint: 'Utfører alle godkjente betalinger som er forfalt, uten å vente på neste batchkjøring.',
    badAmount: (max, unit) => `Skriv et helt antall ${unit} fra 1 til ${max}.`,
  },
  offset: (days, hours, minutes) => `${days} d ${hours} t ${minutes} min`,
  reset: {
    heading: 'Tilbakestill banken',
    hint: 'Setter banken tilbake til standarddataene: kundene, kontoene, betalingene og samtykkene dine slettes. Klokken blir stående.',
    confirm: 'Ja, slett testdataene mine',
    button: 'Tilbakestill banken',
    confirmNeeded: 'Kryss av i boksen for å bekrefte at testdataene skal slettes.',
  },
  notice: (notice) => {
    switch (notice.kind) {
      case 'clock-moved':
        return `Klokken er flyttet. ${count(notice.batchRuns, 'batchkjøring', 'batchkjøringer')} kjørte underveis: ${count(notice.executed, 'betaling', 'betalinger')} utført, ${notice.rejected} avvist.`;
      case 'batch-run':
        return `Batchen kjørte: ${count(notice.executed, 'betaling', 'betalinger')} utført, ${notice.rejected} avvist.`;
      case 'reset':
        return 'Banken din er tilbake til standarddataene.';
      case 'snapshot-saved':
        return 'Øyeblikksbildet er lagret.';
      case 'snapshot-restored':
        return 'Banken din er tilbake slik øyeblikksbildet holder den.';
      case 'snapshot-deleted':
        return 'Øyeblikksbildet er slettet.';
      case 'scenario-armed':
        return 'Scenarioet er aktivert.';
      case 'scenario-disarmed':
        return 'Scenarioet er slått av.';
      case 'notification-resent':
        return 'Varselet sendes på nytt.';
    }
  },
  actionFailed: 'Det gikk ikke:',
  customers: {
    intro: 'Kundene i banken din, standarddataene først, med kontoer og kortkontoer.',
    none: 'Banken din har ingen kunder. Tilbakestill den for å få standarddataene, eller opprett kunder med API-et.',
    more: (shown) => `Bare de første ${shown} kundene vises; les resten med GET /v1/sandbox/customers.`,
    customerNumber: 'Kundenummer',
    type: { PRIVATE: 'Privat', CORPORATE: 'Bedrift' },
    accounts: 'Kontoer',
    noAccounts: 'Ingen kontoer.',
    cards: 'Kortkontoer',
    balance: 'Saldo',
    creditLine: 'Kreditt',
    creditLimit: 'Kredittgrense',
    iban: 'IBAN',
  },
  payments: {
    intro: (shown) => `Betalingene i banken din, nyeste først (høyst ${shown}).`,
    none: 'Ingen betalinger ennå. Opprett en med API-et (README, «Your first signed call»).',
    product: 'Produkt',
    amount: 'Beløp',
    fee: 'Gebyr',
    from: 'Fra',
    to: 'Til',
    entries: (count) => `${count} betalinger`,
    created: 'Opprettet',
    executionDate: 'Utførelsesdato',
    reason: 'Årsak',
    basket: 'Signeringskurv',
    status: 'Status',
    history: 'Historikk',
    historyHint:
      'Lest ut fra det banken lagrer om betalingen: opprettelsen, hver autorisasjon, godkjenningen, posteringene og siste status.',
    back: 'Alle betalinger',
  },
  ...PAYMENT_HISTORY_TEXTS.nb,
  consents: {
    intro: (shown) => `Samtykkene til kontoinformasjon i banken din, nyeste først (høyst ${shown}).`,
    none: 'Ingen samtykker ennå. Be om et med POST /v1/bank-offered-consents (docs/ais.md).',
    status: {
      received: 'mottatt: venter på kunden',
      valid: 'gyldig',
      rejected: 'avvist',
      replaced: 'erstattet av et senere samtykke',
      expired: 'utløpt: SCA-en er 180 dager gammel',
      revokedByPsu: 'trukket tilbake av kunden',
      terminatedByTpp: 'avsluttet av TPP-en',
    },
    customer: 'Gitt av',
    notYetGiven: 'ikke gitt ennå',
    session: 'TPP-Session-ID',
    shares: 'Deler',
    nothingShared: 'ingenting',
    card: 'kort',
    validUntil: 'Gyldig til',
    scaAt: 'SCA',
    created: 'Bedt om',
  },
  messages: CONSOLE_MESSAGE_TEXTS.nb,
  howToOpen: 'I prosjektet til TPP-en din, med TPP_BASE_URL satt til denne sandkassen:',
  goOn: 'Åpnet du en konsollenke fra et annet nettsted nå nettopp? Gå videre til konsollet.',
  backToConsole: 'Tilbake til konsollet',
};

export const CONSOLE_TEXTS: Record<Language, ConsoleTexts> = { en, nb };
