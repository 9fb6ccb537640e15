import type { Language } from '../../domain/language.js';

/** The texts of the console's notifications page (docs/notifications.md, "In the sandbox"), in English and Bokmål. */
export interface NotificationTexts {
  intro: (shown: number) => string;
  none: string;
  eventId: string;
  eventType: string;
  resource: string;
  subject: string;
  destination: string;
  occurred: string;
  state: string;
  states: {
    pending: (at: string) => string;
    due: string;
    delivered: (at: string) => string;
    gone: (at: string) => string;
    expired: (at: string) => string;
    stopped: (at: string) => string;
  };
  tries: string;
  noTries: string;
  try: (n: number) => string;
  duration: (ms: number) => string;
  status: (status: number) => string;
  error: string;
  answer: string;
  sendAgain: string;
  sendAgainHint: string;
  unknown: (eventId: string) => string;
}

const en: NotificationTexts = {
  intro: (shown) =>
    `The notifications your bank sent, or is sending, to the TPP-Notification-URI of your creates: the newest ${shown}, newest first, each with its tries.`,
  none: 'No notifications yet. Create a payment or consent with a TPP-Notification-URI header to subscribe to its status changes.',
  eventId: 'eventId',
  eventType: 'eventType',
  resource: 'Resource',
  subject: 'Changed',
  destination: 'Sent to',
  occurred: 'Occurred',
  state: 'State',
  states: {
    pending: (at) => `pending: next try ${at}`,
    due: 'pending: next try at once',
    delivered: (at) => `delivered ${at}`,
    gone: (at) => `gone: your endpoint answered 410 at ${at}; the resource’s other notifications stopped`,
    expired: (at) => `expired ${at}: not taken within 24 hours of tries`,
    stopped: (at) => `stopped ${at}: a 410 to another notification of the resource`,
  },
  tries: 'Tries',
  noTries: 'Not tried yet.',
  try: (n) => `Try ${n}`,
  duration: (ms) => `${ms} ms`,
  status: (status) => `HTTP ${status}`,
  error: 'no answer',
  answer: 'The answer’s first bytes',
  sendAgain: 'Send again',
  sendAgainHint:
    'Sends the notification once more, at once, with the same eventId; the resource’s later notifications wait for it, as they keep their order.',
  unknown: (eventId) => `No notification ${eventId} is yours.`,
};

const nb: NotificationTexts = {
  intro: (shown) =>
    `Varslene banken din har sendt, eller sender, til TPP-Notification-URI-en du ga da du opprettet noe: de ${shown} nyeste, nyeste først, hvert med sine forsøk.`,
  none: 'Ingen varsler ennå. Opprett en betaling eller et samtykke med headeren TPP-Notification-URI for å abonnere på statusendringene.',
  eventId: 'eventId',
  eventType: 'eventType',
  resource: 'Ressurs',
  subject: 'Endret',
  destination: 'Sendt til',
  occurred: 'Skjedde',
  state: 'Tilstand',
  states: {
    pending: (at) => `venter: neste forsøk ${at}`,
    due: 'venter: neste forsøk straks',
    delivered: (at) => `levert ${at}`,
    gone: (at) => `borte: endepunktet ditt svarte 410 ${at}; ressursens andre varsler stoppet`,
    expired: (at) => `utløpt ${at}: ikke tatt imot etter 24 timers forsøk`,
    stopped: (at) => `stoppet ${at}: 410 på et annet varsel for ressursen`,
  },
  tries: 'Forsøk',
  noTries: 'Ikke forsøkt ennå.',
  try: (n) => `Forsøk ${n}`,
  duration: (ms) => `${ms} ms`,
  status: (status) => `HTTP ${status}`,
  error: 'intet svar',
  answer: 'Svarets første byte',
  sendAgain: 'Send på nytt',
  sendAgainHint:
    'Sender varselet én gang til, straks, med samme eventId; ressursens senere varsler venter på det, så rekkefølgen holder.',
  unknown: (eventId) => `Varselet ${eventId} er ikke ditt.`,
};

export const NOTIFICATION_TEXTS: Record<Language, NotificationTexts> = { en, nb };
