import type { Language } from '../../domain/language.js';
import type { ScaStatus } from '../../domain/sca.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';

/** Why the console shows a page of its own instead of the bank: each with a title and a text. */
export type ConsoleMessage =
  | 'signed-out'
  | 'link-invalid'
  | 'link-expired'
  | 'link-used'
  | 'busy'
  | 'too-many-links'
  | 'bank-gone'
  | 'form-invalid'
  | 'payment-unknown'
  | 'not-found'
  | 'fault';

/** What an action did, told on the page it leads back to. */
export type ConsoleNotice =
  | { kind: 'clock-moved'; batchRuns: number; executed: number; rejected: number }
  | { kind: 'batch-run'; executed: number; rejected: number }
  | { kind: 'reset' }
  | { kind: 'snapshot-saved' }
  | { kind: 'snapshot-restored' }
  | { kind: 'snapshot-deleted' }
  | { kind: 'scenario-armed' }
  | { kind: 'scenario-disarmed' };

/** Every text of the console's pages, in English and Norwegian Bokmål, as the SCA pages have theirs. */
export interface ConsoleTexts {
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
  messages: Record<ConsoleMessage, { title: string; text: string }>;
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
  consents: {
    intro: (shown) => `Your bank’s account-information consents, newest first (at most ${shown}).`,
    none: 'No consents yet. Ask for one with POST /v1/bank-offered-consents (docs/ais.md).',
    status: {
      received: 'received: waiting for the PSU',
      valid: 'valid',
      rejected: 'rejected',
      replaced: 'replaced by a later consent',
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
  messages: {
    'signed-out': {
      title: 'Open your console with tpp console',
      text: 'This console shows one TPP’s sandbox bank, to that TPP only. Ask for a link with a signed request, then open it here.',
    },
    'link-invalid': {
      title: 'This link does not work',
      text: 'The link is not one this sandbox gave out, or it was changed on the way. Ask for a new one.',
    },
    'link-expired': {
      title: 'This link has expired',
      text: 'A console link works for five minutes after it is given out. Ask for a new one.',
    },
    'link-used': {
      title: 'This link was used already',
      text: 'A console link opens the console once. Ask for a new one, or go on in the browser that opened it.',
    },
    busy: {
      title: 'Try again in a few minutes',
      text: 'Too many console links were opened in the last minutes. Ask for a new link in a few minutes.',
    },
    'too-many-links': {
      title: 'Too many links opened',
      text: 'Your TPP opened more console links in the last five minutes than the sandbox takes. Go on in a browser that has the console open, or ask for a new link in a few minutes.',
    },
    'bank-gone': {
      title: 'Your sandbox bank is gone',
      text: 'It was removed after being unused for a long time. A signed request makes a new one; then ask for a new link.',
    },
    'form-invalid': {
      title: 'The form cannot be used',
      text: 'The form was not sent from this console, or it is too old. Nothing was changed. Go back, reload the page and try again.',
    },
    'payment-unknown': {
      title: 'No such payment',
      text: 'Your sandbox bank has no payment with this id.',
    },
    'not-found': { title: 'No such page', text: 'The console has no page at this address.' },
    fault: { title: 'Something went wrong', text: 'The sandbox could not show this page. Try again.' },
  },
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
  consents: {
    intro: (shown) => `Samtykkene til kontoinformasjon i banken din, nyeste først (høyst ${shown}).`,
    none: 'Ingen samtykker ennå. Be om et med POST /v1/bank-offered-consents (docs/ais.md).',
    status: {
      received: 'mottatt: venter på kunden',
      valid: 'gyldig',
      rejected: 'avvist',
      replaced: 'erstattet av et senere samtykke',
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
  messages: {
    'signed-out': {
      title: 'Åpne konsollet med tpp console',
      text: 'Konsollet viser sandkassebanken til én TPP, bare for den TPP-en. Be om en lenke med en signert forespørsel, og åpne den her.',
    },
    'link-invalid': {
      title: 'Lenken virker ikke',
      text: 'Lenken er ikke gitt ut av denne sandkassen, eller den ble endret underveis. Be om en ny.',
    },
    'link-expired': {
      title: 'Lenken er utløpt',
      text: 'En konsollenke virker i fem minutter etter at den er gitt ut. Be om en ny.',
    },
    'link-used': {
      title: 'Lenken er allerede brukt',
      text: 'En konsollenke åpner konsollet én gang. Be om en ny, eller fortsett i nettleseren som åpnet den.',
    },
    busy: {
      title: 'Prøv igjen om noen minutter',
      text: 'For mange konsollenker ble åpnet de siste minuttene. Be om en ny lenke om noen minutter.',
    },
    'too-many-links': {
      title: 'For mange lenker åpnet',
      text: 'TPP-en din åpnet flere konsollenker de siste fem minuttene enn sandkassen tar imot. Fortsett i en nettleser som har konsollet åpent, eller be om en ny lenke om noen minutter.',
    },
    'bank-gone': {
      title: 'Sandkassebanken din finnes ikke lenger',
      text: 'Den ble fjernet etter lang tid uten bruk. En signert forespørsel lager en ny; be deretter om en ny lenke.',
    },
    'form-invalid': {
      title: 'Skjemaet kan ikke brukes',
      text: 'Skjemaet ble ikke sendt fra dette konsollet, eller det er for gammelt. Ingenting ble endret. Gå tilbake, last inn siden på nytt og prøv igjen.',
    },
    'payment-unknown': {
      title: 'Betalingen finnes ikke',
      text: 'Sandkassebanken din har ingen betaling med denne id-en.',
    },
    'not-found': { title: 'Siden finnes ikke', text: 'Konsollet har ingen side på denne adressen.' },
    fault: { title: 'Noe gikk galt', text: 'Sandkassen kunne ikke vise denne siden. Prøv igjen.' },
  },
  howToOpen: 'I prosjektet til TPP-en din, med TPP_BASE_URL satt til denne sandkassen:',
  goOn: 'Åpnet du en konsollenke fra et annet nettsted nå nettopp? Gå videre til konsollet.',
  backToConsole: 'Tilbake til konsollet',
};

export const CONSOLE_TEXTS: Record<Language, ConsoleTexts> = { en, nb };
