import type { Language } from '../../domain/language.js';
import type { ScenarioKind } from '../../domain/sandbox-scenarios.js';
import type { ScenarioField } from './scenario-form.js';

/** The texts of the console's scenario page (docs/scenarios.md), in English and Bokmål. */
export interface ScenarioTexts {
  intro: string;
  armedHeading: string;
  none: string;
  disarm: string;
  armedAt: string;
  armHeading: string;
  kindLabel: string;
  choose: string;
  kinds: Record<ScenarioKind, { name: string; text: string }>;
  fields: Record<ScenarioField, { label: string; hint?: string }>;
  matchHint: string;
  everyOperation: string;
  then: { ACSC: string; RJCT: string };
  unlimited: string;
  arm: string;
  wrong: (labels: string[]) => string;
  /** The labels of an armed scenario's fields (armed-scenario-view.ts), and how its numbers read. */
  armedFields: {
    matches: string;
    everyPayment: string;
    debtorAccount: string;
    amount: string;
    endToEnd: string;
    operation: string;
    from: string;
    until: string;
    then: string;
    reason: string;
    retryAfter: string;
    delay: string;
    timesLeft: string;
    armedAt: string;
    seconds: (n: number) => string;
    milliseconds: (n: number) => string;
  };
}

const en: ScenarioTexts = {
  intro:
    'A scenario makes your bank do what its data alone does not: hold or reject a payment when it executes, or answer your TPP’s requests throttled, down, slow or failing. It runs the times you give, or until you disarm it.',
  armedHeading: 'Armed scenarios',
  none: 'No scenario is armed.',
  disarm: 'Disarm',
  armedAt: 'Armed at',
  armHeading: 'Arm a scenario',
  kindLabel: 'Kind',
  choose: 'Choose',
  kinds: {
    'payment-pending': {
      name: 'Payment pending',
      text: 'The next matching payment the bank executes goes PDNG, then ACSC or RJCT at the first batch run after the hold.',
    },
    'payment-held': {
      name: 'Payment held in settlement',
      text: 'The next matching payment the bank executes goes ACSP, then is executed at the first batch run after the hold.',
    },
    'payment-rejected': {
      name: 'Payment rejected',
      text: 'The next matching payment the bank executes is RJCT, with the reason you choose.',
    },
    'bank-throttled': {
      name: 'Bank throttled',
      text: 'Your requests to the operation are answered 429 ACCESS_EXCEEDED with Retry-After.',
    },
    'bank-maintenance': {
      name: 'Bank down for maintenance',
      text: 'In the window, your requests to the operation are answered 503 SERVICE_UNAVAILABLE with Retry-After.',
    },
    'bank-slow': { name: 'Bank slow', text: 'Your requests to the operation are answered after a delay.' },
    'bank-error': {
      name: 'Bank failing',
      text: 'Your requests to the operation are answered 500 SYSTEM_ERROR.',
    },
  },
  fields: {
    debtorBban: { label: 'Debtor account (BBAN)', hint: 'Only payments from this account, such as 15061012343.' },
    amount: { label: 'Amount', hint: 'Only payments of this amount, such as 250.00.' },
    currency: { label: 'Currency of the amount', hint: 'NOK unless you give another.' },
    endToEnd: { label: 'End-to-end identification', hint: 'Only payments with this endToEndIdentification.' },
    holdHours: { label: 'Held for (hours, by the bank’s clock)' },
    then: { label: 'Then' },
    reasonCode: { label: 'Reason code', hint: 'For a rejection: the ISO 20022 code its statusReason starts with.' },
    reasonText: { label: 'Reason text (optional)', hint: 'The words after the code; the code’s own when left out.' },
    operationId: { label: 'Operation' },
    retryAfterSeconds: { label: 'Retry-After (seconds)' },
    startsInMinutes: { label: 'Starts in (minutes)' },
    lastsMinutes: { label: 'Lasts (minutes)' },
    delayMs: { label: 'Delay (milliseconds)' },
    times: { label: 'Times', hint: 'How many payments or requests it takes.' },
  },
  matchHint: 'Left empty, it takes the next payment the bank executes.',
  everyOperation: 'Every operation of the bank’s API',
  then: { ACSC: 'ACSC: executed', RJCT: 'RJCT: rejected' },
  unlimited: 'Until I disarm it',
  arm: 'Arm the scenario',
  wrong: (labels) => `Check: ${labels.join(', ')}.`,
  armedFields: {
    matches: 'Takes',
    everyPayment: 'Every payment the bank executes',
    debtorAccount: 'Debtor account',
    amount: 'Amount',
    endToEnd: 'End-to-end identification',
    operation: 'Operation',
    from: 'From',
    until: 'Until',
    then: 'Then',
    reason: 'Reason',
    retryAfter: 'Retry-After',
    delay: 'Delay',
    timesLeft: 'Times left',
    armedAt: 'Armed at',
    seconds: (n) => `${n} s`,
    milliseconds: (n) => `${n} ms`,
  },
};

const nb: ScenarioTexts = {
  intro:
    'Et scenario får banken til å gjøre det dataene alene ikke gjør: holde tilbake eller avvise en betaling når den utføres, eller svare TPP-ens forespørsler strupet, nede, tregt eller med feil. Det virker så mange ganger du velger, eller til du slår det av.',
  armedHeading: 'Aktive scenarioer',
  none: 'Ingen scenarioer er aktive.',
  disarm: 'Slå av',
  armedAt: 'Aktivert',
  armHeading: 'Aktiver et scenario',
  kindLabel: 'Type',
  choose: 'Velg',
  kinds: {
    'payment-pending': {
      name: 'Betaling venter',
      text: 'Neste betaling som passer og som banken utfører, blir PDNG, deretter ACSC eller RJCT ved første batchkjøring etter at den er holdt.',
    },
    'payment-held': {
      name: 'Betaling holdt i oppgjør',
      text: 'Neste betaling som passer og som banken utfører, blir ACSP, og utføres ved første batchkjøring etter at den er holdt.',
    },
    'payment-rejected': {
      name: 'Betaling avvist',
      text: 'Neste betaling som passer og som banken utfører, blir RJCT, med årsaken du velger.',
    },
    'bank-throttled': {
      name: 'Banken struper',
      text: 'Forespørslene dine til operasjonen får 429 ACCESS_EXCEEDED med Retry-After.',
    },
    'bank-maintenance': {
      name: 'Banken er nede for vedlikehold',
      text: 'I tidsrommet får forespørslene dine til operasjonen 503 SERVICE_UNAVAILABLE med Retry-After.',
    },
    'bank-slow': { name: 'Banken er treg', text: 'Forespørslene dine til operasjonen besvares etter en forsinkelse.' },
    'bank-error': { name: 'Banken feiler', text: 'Forespørslene dine til operasjonen får 500 SYSTEM_ERROR.' },
  },
  fields: {
    debtorBban: { label: 'Fra konto (BBAN)', hint: 'Bare betalinger fra denne kontoen, som 15061012343.' },
    amount: { label: 'Beløp', hint: 'Bare betalinger på dette beløpet, som 250.00.' },
    currency: { label: 'Beløpets valuta', hint: 'NOK om du ikke oppgir en annen.' },
    endToEnd: { label: 'Ende-til-ende-referanse', hint: 'Bare betalinger med denne endToEndIdentification.' },
    holdHours: { label: 'Holdt i (timer, etter bankens klokke)' },
    then: { label: 'Deretter' },
    reasonCode: { label: 'Årsakskode', hint: 'Ved avvisning: ISO 20022-koden statusReason begynner med.' },
    reasonText: { label: 'Årsakstekst (valgfri)', hint: 'Ordene etter koden; kodens egne om du ikke skriver noen.' },
    operationId: { label: 'Operasjon' },
    retryAfterSeconds: { label: 'Retry-After (sekunder)' },
    startsInMinutes: { label: 'Starter om (minutter)' },
    lastsMinutes: { label: 'Varer (minutter)' },
    delayMs: { label: 'Forsinkelse (millisekunder)' },
    times: { label: 'Antall ganger', hint: 'Hvor mange betalinger eller forespørsler det tar.' },
  },
  matchHint: 'Står feltene tomme, tar det neste betaling banken utfører.',
  everyOperation: 'Alle operasjonene i bankens API',
  then: { ACSC: 'ACSC: utført', RJCT: 'RJCT: avvist' },
  unlimited: 'Til jeg slår det av',
  arm: 'Aktiver scenarioet',
  wrong: (labels) => `Sjekk: ${labels.join(', ')}.`,
  armedFields: {
    matches: 'Tar',
    everyPayment: 'Hver betaling banken utfører',
    debtorAccount: 'Fra konto',
    amount: 'Beløp',
    endToEnd: 'Ende-til-ende-referanse',
    operation: 'Operasjon',
    from: 'Fra',
    until: 'Til',
    then: 'Deretter',
    reason: 'Årsak',
    retryAfter: 'Retry-After',
    delay: 'Forsinkelse',
    timesLeft: 'Ganger igjen',
    armedAt: 'Aktivert',
    seconds: (n) => `${n} s`,
    milliseconds: (n) => `${n} ms`,
  },
};

export const SCENARIO_TEXTS: Record<Language, ScenarioTexts> = { en, nb };
