import { Eta } from 'eta';
import { isCurrency, minorUnitsOf } from '../../domain/currency.js';
import type { Language } from '../../domain/language.js';
import { formatAmount } from '../../domain/money.js';
import type { PaymentToSign, ScaPage } from '../../services/sca-service.js';
import { scheduleRows } from './sca-schedule.js';
import { SCA_TEXTS, type ScaTexts } from './sca-texts.js';
import { CHOOSE, CONFIRM, LAYOUT, LOGIN, MESSAGE } from './sca-templates.js';

/** The page templates, compiled when a page is first rendered rather than when the server loads. */
let templates: Eta | undefined;
function eta(): Eta {
  if (templates !== undefined) return templates;
  const made = new Eta({ autoEscape: true, autoTrim: false, cache: true });
  made.loadTemplate('@layout', LAYOUT);
  made.loadTemplate('@login', LOGIN);
  made.loadTemplate('@confirm', CONFIRM);
  made.loadTemplate('@message', MESSAGE);
  made.loadTemplate('@choose', CHOOSE);
  templates = made;
  return made;
}

export interface RenderContext {
  language: Language;
  csrf: string;
  sandbox: boolean;
}

/** The HTML of an SCA page (every page but a redirect), in the PSU's language. */
export function renderScaPage(page: Exclude<ScaPage, { kind: 'redirect' }>, context: RenderContext): string {
  const t = SCA_TEXTS[context.language];
  const common = {
    lang: context.language,
    bank: t.bank,
    sandbox: context.sandbox,
    sandboxBanner: t.sandboxBanner,
    csrf: context.csrf,
  };
  switch (page.kind) {
    case 'login':
      return eta().render('@login', { ...common, ...loginView(page, t) });
    case 'confirm':
      return eta().render('@confirm', { ...common, ...confirmView(page, t, context.language) });
    case 'choose-accounts':
      return eta().render('@choose', { ...common, ...chooseView(page, t) });
    case 'message':
      return eta().render('@message', { ...common, ...messageView(page, t) });
  }
}

type PageOf<Kind extends ScaPage['kind']> = Extract<ScaPage, { kind: Kind }>;

/** The customer number and one-time code, for the method the PSU is asked to use. */
function loginView(page: PageOf<'login'>, t: ScaTexts) {
  return {
    title: t.title.login,
    action: '/sca/login',
    step: page.step,
    purpose: t.purpose[page.purpose](page.tppName),
    methodLabel: t.methodLabel,
    method: t.method[page.method],
    methodUnavailable: page.methodUnavailable === undefined ? undefined : t.methodUnavailable(page.methodUnavailable),
    biometric: page.biometric ? t.biometric : undefined,
    failedAttempt: page.failedAttempt ? t.failedAttempt : undefined,
    loginDisabled: page.loginDisabled ? t.loginDisabled : undefined,
    customerNumberLabel: t.customerNumber,
    codeLabel: t.code,
    logIn: t.logIn,
    cancel: t.cancel,
    codeHint: page.codeHint === undefined ? undefined : t.codeHint(page.codeHint.valid, page.codeHint.invalid),
  };
}

/**
 * The payments to sign (one, or a basket's), approvable when at least one of them can be executed;
 * or the payment whose cancellation the PSU approves, said so in the title, the text and the buttons.
 */
function confirmView(page: PageOf<'confirm'>, t: ScaTexts, language: Language) {
  const purpose = page.cancellation
    ? t.purpose.cancellation
    : page.payments.length > 1
      ? t.purpose.basket
      : t.purpose.payment;
  return {
    title: page.cancellation ? t.title.cancel : t.title.confirm,
    action: '/sca/decision',
    step: page.step,
    purpose: purpose(page.tppName),
    signer: t.signer(page.signer),
    context: page.agreementName === undefined ? t.privately : t.onBehalfOf(page.agreementName),
    labels: t,
    payments: page.payments.map((p) => paymentView(p, language, !page.cancellation)),
    canApprove: page.payments.some((p) => p.problem === undefined),
    cannotApprove: page.cancellation ? t.cannotCancel : t.cannotApprove,
    approve: page.cancellation ? t.approveCancellation : t.approve,
    decline: page.cancellation ? t.keepPayment : t.decline,
  };
}

/** The accounts and card accounts a consent may share, each with a box to tick. */
function chooseView(page: PageOf<'choose-accounts'>, t: ScaTexts) {
  return {
    title: t.title.choose,
    action: '/sca/decision',
    step: page.step,
    purpose: t.purpose.consent(page.tppName),
    signer: t.signer(page.signer),
    context: page.agreementName === undefined ? t.sharePrivately : t.shareFor(page.agreementName),
    intro: t.chooseIntro(page.tppName),
    noneChosen: page.noneChosen ? t.noneChosen : undefined,
    noAccounts: t.noAccounts,
    accounts: page.accounts.map((a) => ({
      id: a.id,
      name: a.name,
      number: a.kind === 'account' ? formatAccount(a.number) : a.number,
      currency: a.currency,
      checked: a.checked,
      card: a.kind === 'card' ? t.card : undefined,
    })),
    notShown: page.notShown > 0 ? t.notShown(page.notShown) : undefined,
    share: t.share,
    decline: t.decline,
    withdraw: page.withdrawable ? t.withdraw : undefined,
    withdrawHint: page.withdrawable ? t.withdrawHint(page.tppName) : undefined,
  };
}

/** An outcome or an error, with the way back to the TPP when there is one. */
function messageView(page: PageOf<'message'>, t: ScaTexts) {
  return {
    title: t.messages[page.message].title,
    text: t.messages[page.message].text,
    outcome: page.message,
    returnUrl: page.returnUrl,
    returnTo: t.returnTo,
  };
}

/** A payment as the page shows it; a standing order with its schedule (the first payment's date when it is approved, not ended). */
function paymentView({ payment, problem }: PaymentToSign, language: Language, approving: boolean) {
  const t = SCA_TEXTS[language];
  const total = payment.transfers.reduce((sum, transfer) => sum + transfer.amountMinor, 0n);
  const currency = payment.transfers[0]?.currency ?? 'NOK';
  return {
    id: payment.id,
    problem,
    debtorAccount: formatAccount(payment.debtorBban ?? payment.debtorIban ?? ''),
    creditors: payment.transfers.map((transfer) => ({
      name: transfer.creditorName,
      account: formatAccount(transfer.creditorAccount),
      amount: money(transfer.amountMinor, transfer.currency, language),
    })),
    entriesLabel: t.entries(payment.transfers.length),
    amount: money(total, currency, language),
    fee: money(payment.feeMinor, payment.feeCurrency, language),
    executionDate: payment.requestedExecutionDate ?? t.asSoonAsPossible,
    schedule: payment.schedule === undefined ? undefined : scheduleRows(payment.schedule, language, approving),
    remittance: payment.remittance.length === 1 ? payment.remittance[0] : undefined,
  };
}

/** An account number as people write it: Norwegian 1234.56.78903, an IBAN in groups of four. */
export function formatAccount(account: string): string {
  if (/^\d{11}$/.test(account)) return `${account.slice(0, 4)}.${account.slice(4, 6)}.${account.slice(6)}`;
  if (/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(account)) return account.replace(/(.{4})(?=.)/g, '$1 ');
  return account;
}

/** An amount in the PSU's number format, from its decimal text: no float on the way. */
export function money(minor: bigint, currency: string, language: Language): string {
  if (!isCurrency(currency)) return `${currency} ${minor}`;
  const units = minorUnitsOf(currency);
  const format = new Intl.NumberFormat(language === 'nb' ? 'nb-NO' : 'en-GB', {
    minimumFractionDigits: units,
    maximumFractionDigits: units,
  });
  return `${currency} ${format.format(formatAmount(minor, currency) as unknown as number)}`;
}
