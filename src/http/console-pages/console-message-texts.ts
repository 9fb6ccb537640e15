import type { Language } from '../../domain/language.js';

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

/** The title and text of each of the console's messages, in English and Norwegian Bokmål. */
export type ConsoleMessageTexts = Record<ConsoleMessage, { title: string; text: string }>;

const en: ConsoleMessageTexts = {
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
};

const nb: ConsoleMessageTexts = {
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
};

export const CONSOLE_MESSAGE_TEXTS: Record<Language, ConsoleMessageTexts> = { en, nb };
