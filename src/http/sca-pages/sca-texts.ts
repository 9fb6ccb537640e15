import type { Language } from '../../domain/language.js';
import type { ScaMessage } from '../../services/sca-service.js';

/** Every text of the SCA pages, in English and Norwegian Bokmål. */
export interface ScaTexts {
  bank: string;
  sandboxBanner: string;
  title: { login: string; confirm: string; message: string; choose: string; cancel: string };
  purpose: {
    payment: (tpp: string) => string;
    basket: (tpp: string) => string;
    session: (tpp: string) => string;
    consent: (tpp: string) => string;
    cancellation: (tpp: string) => string;
  };
  method: { BANKID: string; BANKID_MOBILE: string; OTP: string };
  methodLabel: string;
  methodUnavailable: (asked: string) => string;
  biometric: string;
  customerNumber: string;
  code: string;
  codeHint: (valid: string, invalid: string) => string;
  loginDisabled: string;
  logIn: string;
  /** The login page's way out, back to the TPP. */
  cancel: string;
  failedAttempt: string;
  signer: (name: string) => string;
  onBehalfOf: (agreement: string) => string;
  privately: string;
  debtorAccount: string;
  creditor: string;
  amount: string;
  fee: string;
  executionDate: string;
  asSoonAsPossible: string;
  message: string;
  entries: (count: number) => string;
  cannotApprove: string;
  approve: string;
  decline: string;
  /** The confirmation page of a cancellation: its buttons, and why a payment cannot be cancelled. */
  cannotCancel: string;
  approveCancellation: string;
  keepPayment: string;
  messages: Record<ScaMessage, { title: string; text: string }>;
  returnTo: string;
  /** The consent page: which accounts the TPP may read. */
  chooseIntro: (tpp: string) => string;
  sharePrivately: string;
  shareFor: (agreement: string) => string;
  noneChosen: string;
  noAccounts: string;
  notShown: (count: number) => string;
  card: string;
  share: string;
  /** On a renewal: withdrawing the consent in force instead of giving a new one. */
  withdraw: string;
  withdrawHint: (tpp: string) => string;
}

const en: ScaTexts = {
  bank: 'Sandbox Bank',
  sandboxBanner: 'Sandbox: test data only. No real money moves.',
  title: {
    login: 'Log in',
    confirm: 'Check and approve',
    message: 'Payment approval',
    choose: 'Choose accounts to share',
    cancel: 'Check and approve the cancellation',
  },
  purpose: {
    payment: (tpp) => `${tpp} asks you to approve a payment.`,
    basket: (tpp) => `${tpp} asks you to approve several payments at once.`,
    session: (tpp) => `${tpp} asks you to confirm who you are, to connect to your bank.`,
    consent: (tpp) => `${tpp} asks to see information about your accounts.`,
    cancellation: (tpp) =>
      `${tpp} asks you to approve the cancellation of a payment you approved earlier. Once cancelled, it will not be paid.`,
  },
  method: { BANKID: 'BankID', BANKID_MOBILE: 'BankID on mobile', OTP: 'One-time code' },
  methodLabel: 'Method',
  methodUnavailable: (asked) => `The method "${asked}" is not available; use a one-time code.`,
  biometric: 'We started biometric authentication on your phone. Confirm there, then enter the code the app shows.',
  customerNumber: 'Customer number (national identity number)',
  code: 'One-time code',
  codeHint: (valid, invalid) => `Sandbox: code ${valid} always works, ${invalid} always fails.`,
  loginDisabled: 'Logging in is not available in this installation yet.',
  logIn: 'Log in',
  cancel: 'Cancel',
  failedAttempt: 'The customer number or the code was not accepted. Try again.',
  signer: (name) => `Logged in as ${name}.`,
  onBehalfOf: (agreement) => `You sign on behalf of ${agreement}.`,
  privately: 'You sign as a private person.',
  debtorAccount: 'From account',
  creditor: 'To',
  amount: 'Amount',
  fee: 'Fee',
  executionDate: 'Date',
  asSoonAsPossible: 'As soon as possible',
  message: 'Message',
  entries: (count) => `${count} payments`,
  cannotApprove: 'This payment cannot be approved:',
  approve: 'Approve',
  decline: 'Decline',
  cannotCancel: 'This payment cannot be cancelled:',
  approveCancellation: 'Approve the cancellation',
  keepPayment: 'Do not cancel',
  messages: {
    'link-invalid': {
      title: 'This link does not work',
      text: 'The link has been used already, or it does not exist. Nothing was approved. Start again from the app you came from.',
    },
    'form-invalid': {
      title: 'This form cannot be used',
      text: 'The form was not sent from this page, or it is too old. Nothing was approved. Start again from the app you came from.',
    },
    'idp-unavailable': {
      title: 'Logging in is not available right now',
      text: 'The service you log in with did not answer. Nothing was approved. Try again in a while from the app you came from.',
    },
    'login-refused': {
      title: 'The log-in could not be used',
      text: 'The answer from the service you logged in with could not be verified, or it does not name a customer of the bank. Nothing was approved. Start again from the app you came from.',
    },
    'link-expired': {
      title: 'This link has expired',
      text: 'The link is no longer valid. Nothing was approved. Start again from the app you came from.',
    },
    'payment-expired': {
      title: 'The payment has expired',
      text: 'It was not approved in time and has been rejected. Nothing was paid.',
    },
    'wrong-psu': {
      title: 'You cannot approve this',
      text: 'You are not the person this payment was initiated for. Nothing was approved.',
    },
    'too-many-attempts': {
      title: 'Too many attempts',
      text: 'The customer number or the code was wrong too many times. Nothing was approved.',
    },
    'psu-locked': {
      title: 'Logging in is blocked for now',
      text: 'A wrong code was given too many times for this customer. Logging in is blocked for up to an hour, even with the right code. Nothing was approved. Try again later from the app you came from.',
    },
    'payment-cancelled': {
      title: 'The payment was cancelled',
      text: 'The payment was cancelled before your approval reached the bank (for example while you were on this page), so your approval did not apply to it. Nothing was paid for it.',
    },
    'basket-cancelled': {
      title: 'The payments were withdrawn',
      text: 'The payments you were asked to approve together were withdrawn while you were on this page. Nothing was approved.',
    },
    'payment-rejected': {
      title: 'The payment was rejected',
      text: 'The payment was rejected before your approval reached the bank (for example while you were on this page), so your approval did not apply to it. Nothing was paid for it.',
    },
    approved: { title: 'Approved', text: 'Thank you. You can close this page.' },
    declined: { title: 'Declined', text: 'You declined. Nothing was paid.' },
    cancelled: { title: 'Cancelled', text: 'You cancelled before logging in. Nothing was approved.' },
    'nothing-to-sign': { title: 'Nothing was approved', text: 'None of the payments could be approved by you.' },
    'session-established': { title: 'Done', text: 'You are connected. You can close this page.' },
    'consent-given': { title: 'Accounts shared', text: 'The accounts you chose are shared. You can close this page.' },
    'consent-declined': { title: 'Declined', text: 'You declined. Nothing was shared.' },
    'consent-withdrawn': {
      title: 'Consent withdrawn',
      text: 'Your accounts are no longer shared. You can close this page.',
    },
    'consent-wrong-psu': {
      title: 'You cannot do this',
      text: 'You are not the person the request was made for. Nothing was shared.',
    },
    'cancellation-approved': {
      title: 'Payment cancelled',
      text: 'The payment is cancelled and will not be paid. You can close this page.',
    },
    'cancellation-declined': {
      title: 'Not cancelled',
      text: 'You did not approve the cancellation. The payment stands as before.',
    },
    'cancellation-too-late': {
      title: 'The payment could not be cancelled',
      text: 'The payment was executed, rejected or cancelled before your approval reached the bank, so your approval did not cancel it.',
    },
    'bank-unavailable': {
      title: 'The bank could not be reached',
      text: 'Your approval could not reach the bank just now, so nothing was changed. Try again in a few minutes.',
    },
  },
  returnTo: 'Return to',
  chooseIntro: (tpp) =>
    `${tpp} will see the details, balances and transactions of the accounts you tick, until you are asked again (at the latest in 180 days).`,
  sharePrivately: 'You share your own accounts.',
  shareFor: (agreement) => `You share accounts of ${agreement} that you may view.`,
  noneChosen: 'Tick at least one account to share, or decline.',
  noAccounts: 'You have no accounts that can be shared here. Decline to return.',
  notShown: (count) => `${count} more accounts are not shown here; share them another time.`,
  card: 'Card',
  share: 'Share',
  withdraw: 'Withdraw consent',
  withdrawHint: (tpp) =>
    `You have shared accounts with ${tpp}. Untick accounts and share to change what it sees, or withdraw to stop sharing any.`,
};

const nb: ScaTexts = {
  bank: 'Sandkassebanken',
  sandboxBanner: 'Sandkasse: bare testdata. Ingen ekte penger flyttes.',
  title: {
    login: 'Logg inn',
    confirm: 'Kontroller og godkjenn',
    message: 'Godkjenning av betaling',
    choose: 'Velg kontoer å dele',
    cancel: 'Kontroller og godkjenn kanselleringen',
  },
  purpose: {
    payment: (tpp) => `${tpp} ber deg godkjenne en betaling.`,
    basket: (tpp) => `${tpp} ber deg godkjenne flere betalinger samtidig.`,
    session: (tpp) => `${tpp} ber deg bekrefte hvem du er, for å koble til banken din.`,
    consent: (tpp) => `${tpp} ber om å se informasjon om kontoene dine.`,
    cancellation: (tpp) =>
      `${tpp} ber deg godkjenne kanselleringen av en betaling du har godkjent tidligere. Når den er kansellert, blir den ikke betalt.`,
  },
  method: { BANKID: 'BankID', BANKID_MOBILE: 'BankID på mobil', OTP: 'Engangskode' },
  methodLabel: 'Metode',
  methodUnavailable: (asked) => `Metoden «${asked}» er ikke tilgjengelig; bruk engangskode.`,
  biometric: 'Vi har startet biometrisk autentisering på telefonen din. Bekreft der, og skriv inn koden appen viser.',
  customerNumber: 'Kundenummer (fødselsnummer)',
  code: 'Engangskode',
  codeHint: (valid, invalid) => `Sandkasse: koden ${valid} virker alltid, ${invalid} feiler alltid.`,
  loginDisabled: 'Innlogging er ikke tilgjengelig i denne installasjonen ennå.',
  logIn: 'Logg inn',
  cancel: 'Avbryt',
  failedAttempt: 'Kundenummeret eller koden ble ikke godtatt. Prøv igjen.',
  signer: (name) => `Logget inn som ${name}.`,
  onBehalfOf: (agreement) => `Du signerer på vegne av ${agreement}.`,
  privately: 'Du signerer som privatperson.',
  debtorAccount: 'Fra konto',
  creditor: 'Til',
  amount: 'Beløp',
  fee: 'Gebyr',
  executionDate: 'Dato',
  asSoonAsPossible: 'Så snart som mulig',
  message: 'Melding',
  entries: (count) => `${count} betalinger`,
  cannotApprove: 'Denne betalingen kan ikke godkjennes:',
  approve: 'Godkjenn',
  decline: 'Avvis',
  cannotCancel: 'Denne betalingen kan ikke kanselleres:',
  approveCancellation: 'Godkjenn kanselleringen',
  keepPayment: 'Ikke kanseller',
  messages: {
    'link-invalid': {
      title: 'Lenken virker ikke',
      text: 'Lenken er allerede brukt, eller den finnes ikke. Ingenting ble godkjent. Start på nytt fra appen du kom fra.',
    },
    'form-invalid': {
      title: 'Skjemaet kan ikke brukes',
      text: 'Skjemaet ble ikke sendt fra denne siden, eller det er for gammelt. Ingenting ble godkjent. Start på nytt fra appen du kom fra.',
    },
    'idp-unavailable': {
      title: 'Innlogging er ikke tilgjengelig nå',
      text: 'Tjenesten du logger inn med, svarte ikke. Ingenting ble godkjent. Prøv igjen om en stund fra appen du kom fra.',
    },
    'login-refused': {
      title: 'Innloggingen kunne ikke brukes',
      text: 'Svaret fra tjenesten du logget inn med, kunne ikke bekreftes, eller det viser ikke til en kunde av banken. Ingenting ble godkjent. Start på nytt fra appen du kom fra.',
    },
    'link-expired': {
      title: 'Lenken er utløpt',
      text: 'Lenken er ikke lenger gyldig. Ingenting ble godkjent. Start på nytt fra appen du kom fra.',
    },
    'payment-expired': {
      title: 'Betalingen er utløpt',
      text: 'Den ble ikke godkjent i tide og er avvist. Ingenting ble betalt.',
    },
    'wrong-psu': {
      title: 'Du kan ikke godkjenne dette',
      text: 'Du er ikke personen betalingen ble startet for. Ingenting ble godkjent.',
    },
    'too-many-attempts': {
      title: 'For mange forsøk',
      text: 'Kundenummeret eller koden var feil for mange ganger. Ingenting ble godkjent.',
    },
    'psu-locked': {
      title: 'Innlogging er sperret inntil videre',
      text: 'Det er oppgitt feil kode for mange ganger for denne kunden. Innlogging er sperret i opptil en time, også med riktig kode. Ingenting ble godkjent. Prøv igjen senere fra appen du kom fra.',
    },
    'payment-cancelled': {
      title: 'Betalingen ble kansellert',
      text: 'Betalingen ble kansellert før godkjenningen din nådde banken (for eksempel mens du var på denne siden), så godkjenningen gjaldt ikke den. Ingenting ble betalt for den.',
    },
    'basket-cancelled': {
      title: 'Betalingene ble trukket tilbake',
      text: 'Betalingene du ble bedt om å godkjenne samlet, ble trukket tilbake mens du var på denne siden. Ingenting ble godkjent.',
    },
    'payment-rejected': {
      title: 'Betalingen ble avvist',
      text: 'Betalingen ble avvist før godkjenningen din nådde banken (for eksempel mens du var på denne siden), så godkjenningen gjaldt ikke den. Ingenting ble betalt for den.',
    },
    approved: { title: 'Godkjent', text: 'Takk. Du kan lukke denne siden.' },
    declined: { title: 'Avvist', text: 'Du avviste. Ingenting ble betalt.' },
    cancelled: { title: 'Avbrutt', text: 'Du avbrøt før du logget inn. Ingenting ble godkjent.' },
    'nothing-to-sign': { title: 'Ingenting ble godkjent', text: 'Ingen av betalingene kunne godkjennes av deg.' },
    'session-established': { title: 'Ferdig', text: 'Du er koblet til. Du kan lukke denne siden.' },
    'consent-given': { title: 'Kontoer delt', text: 'Kontoene du valgte, er delt. Du kan lukke denne siden.' },
    'consent-declined': { title: 'Avvist', text: 'Du avviste. Ingenting ble delt.' },
    'consent-withdrawn': {
      title: 'Samtykket er trukket tilbake',
      text: 'Kontoene dine deles ikke lenger. Du kan lukke denne siden.',
    },
    'consent-wrong-psu': {
      title: 'Du kan ikke gjøre dette',
      text: 'Du er ikke personen forespørselen gjelder. Ingenting ble delt.',
    },
    'cancellation-approved': {
      title: 'Betalingen er kansellert',
      text: 'Betalingen er kansellert og blir ikke betalt. Du kan lukke denne siden.',
    },
    'cancellation-declined': {
      title: 'Ikke kansellert',
      text: 'Du godkjente ikke kanselleringen. Betalingen står som før.',
    },
    'cancellation-too-late': {
      title: 'Betalingen kunne ikke kanselleres',
      text: 'Betalingen ble utført, avvist eller kansellert før godkjenningen din nådde banken, så godkjenningen kansellerte den ikke.',
    },
    'bank-unavailable': {
      title: 'Banken svarte ikke',
      text: 'Godkjenningen din nådde ikke banken nå, så ingenting ble endret. Prøv igjen om noen minutter.',
    },
  },
  returnTo: 'Tilbake til',
  chooseIntro: (tpp) =>
    `${tpp} får se detaljer, saldo og transaksjoner for kontoene du krysser av, til du blir spurt igjen (senest om 180 dager).`,
  sharePrivately: 'Du deler dine egne kontoer.',
  shareFor: (agreement) => `Du deler kontoer i ${agreement} som du har innsyn i.`,
  noneChosen: 'Kryss av minst én konto å dele, eller avvis.',
  noAccounts: 'Du har ingen kontoer som kan deles her. Avvis for å gå tilbake.',
  notShown: (count) => `${count} kontoer til vises ikke her; del dem en annen gang.`,
  card: 'Kort',
  share: 'Del',
  withdraw: 'Trekk tilbake samtykket',
  withdrawHint: (tpp) =>
    `Du deler kontoer med ${tpp}. Fjern haken ved kontoer og del for å endre hva den ser, eller trekk tilbake for ikke å dele noen.`,
};

export const SCA_TEXTS: Record<Language, ScaTexts> = { en, nb };
