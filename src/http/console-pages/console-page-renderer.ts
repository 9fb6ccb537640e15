import { Eta } from 'eta';
import type { Language } from '../../domain/language.js';
import { SANDBOX_CLOCK_MAX_ADVANCE_SECONDS } from '../../domain/limits.js';
import type { HistoryEvent } from '../../services/console/payment-history.js';
import type {
  CustomerHoldings,
  ListedConsent,
  ListedPayment,
  PaymentStory,
} from '../../services/console/sandbox-console.js';
import type { ClockReading } from '../../services/sandbox/sandbox-clock.js';
import { formatAccount, money } from '../sca-pages/sca-page-renderer.js';
import type { ConsoleMessage } from './console-message-texts.js';
import { CONSOLE_TEXTS, type ConsoleNotice, type ConsoleTexts } from './console-texts.js';
import {
  CONSENTS,
  CUSTOMERS,
  LAYOUT,
  MESSAGE,
  NOTIFICATIONS,
  OVERVIEW,
  PAYMENT,
  PAYMENTS,
  SCENARIOS,
  SNAPSHOTS,
} from './console-templates.js';
import { SANDBOX_TEXT_MAX_LENGTH } from '../../domain/limits.js';
import type { SnapshotSummary } from '../../store/snapshot-records.js';
import { SCENARIO_TEXTS } from './scenario-texts.js';
import { type ScenariosPageData, scenariosView } from './scenarios-view.js';
import { SNAPSHOT_TEXTS } from './snapshot-texts.js';
import { osloTime } from './console-time.js';
import { describeReason } from './reason-texts.js';
import { type NotificationsPageData, notificationsView } from './notifications-view.js';

/** The page templates, compiled when a page is first rendered rather than when the server loads. */
let templates: Eta | undefined;
function eta(): Eta {
  if (templates !== undefined) return templates;
  const made = new Eta({ autoEscape: true, autoTrim: false, cache: true });
  made.loadTemplate('@layout', LAYOUT);
  made.loadTemplate('@overview', OVERVIEW);
  made.loadTemplate('@customers', CUSTOMERS);
  made.loadTemplate('@payments', PAYMENTS);
  made.loadTemplate('@payment', PAYMENT);
  made.loadTemplate('@consents', CONSENTS);
  made.loadTemplate('@message', MESSAGE);
  made.loadTemplate('@snapshots', SNAPSHOTS);
  made.loadTemplate('@scenarios', SCENARIOS);
  made.loadTemplate('@notifications', NOTIFICATIONS);
  templates = made;
  return made;
}

/** A page of the console, with what it shows; any page may tell what an action did, or why it was refused. */
export type ConsolePage = (
  | { kind: 'overview'; clock: ClockReading }
  | { kind: 'customers'; customers: CustomerHoldings[]; more: boolean }
  | { kind: 'payments'; payments: ListedPayment[]; limit: number }
  | { kind: 'payment'; story: PaymentStory }
  | { kind: 'consents'; consents: ListedConsent[]; limit: number }
  | { kind: 'snapshots'; snapshots: SnapshotSummary[]; limit: number }
  | ({ kind: 'scenarios' } & ScenariosPageData)
  | ({ kind: 'notifications' } & NotificationsPageData)
  | { kind: 'message'; message: ConsoleMessage }
) & { notice?: ConsoleNotice | undefined; problem?: string | undefined };

export interface ConsoleRenderContext {
  language: Language;
  /** The form token; empty on a page without forms. */
  csrf: string;
  /** The TPP whose console this is; undefined on a page shown to no session (the messages of the way in). */
  tppId: string | undefined;
}

/** The pages a signed-in console links to, in the order its navigation lists them. */
const SECTIONS = [
  { kind: 'overview', href: '/console' },
  { kind: 'customers', href: '/console/customers' },
  { kind: 'payments', href: '/console/payments' },
  { kind: 'consents', href: '/console/consents' },
  { kind: 'snapshots', href: '/console/snapshots' },
  { kind: 'scenarios', href: '/console/scenarios' },
  { kind: 'notifications', href: '/console/notifications' },
] as const;

/** The HTML of a console page, in the developer's language. */
export function renderConsolePage(page: ConsolePage, context: ConsoleRenderContext): string {
  const t = CONSOLE_TEXTS[context.language];
  const current = page.kind === 'payment' ? 'payments' : page.kind;
  const common = {
    lang: context.language,
    texts: t,
    csrf: context.csrf,
    tppId: context.tppId,
    nav:
      context.tppId === undefined
        ? undefined
        : SECTIONS.map((s) => ({ href: s.href, label: t.nav[s.kind], current: s.kind === current })),
  };
  const view = viewOf(page, t, context.language);
  return eta().render(`@${page.kind}`, {
    ...common,
    notice: page.notice === undefined ? undefined : t.notice(page.notice),
    problem: page.problem,
    ...view,
  });
}

function viewOf(page: ConsolePage, t: ConsoleTexts, language: Language): Record<string, unknown> {
  switch (page.kind) {
    case 'overview':
      return {
        title: t.title.overview,
        clock: clockView(page.clock, t),
        maxAmount: Math.floor(SANDBOX_CLOCK_MAX_ADVANCE_SECONDS / 3600),
        extra: '',
      };
    case 'customers':
      return {
        title: t.title.customers,
        customers: page.customers.map((c) => customerView(c, t, language)),
        more: page.more ? t.customers.more(page.customers.length) : undefined,
      };
    case 'payments':
      return {
        title: t.title.payments,
        intro: t.payments.intro(page.limit),
        payments: page.payments.map((p) => paymentView(p, t, language)),
      };
    case 'payment':
      return {
        title: t.title.payment,
        p: paymentDetailView(page.story, t, language),
        events: page.story.events.map((e) => eventView(e, t, language)),
      };
    case 'consents':
      return {
        title: t.title.consents,
        intro: t.consents.intro(page.limit),
        consents: page.consents.map((c) => consentView(c, t)),
      };
    case 'snapshots':
      return snapshotsView(page.snapshots, page.limit, t, language);
    case 'scenarios':
      return { title: t.title.scenarios, ...scenariosView(page, SCENARIO_TEXTS[language], language) };
    case 'notifications':
      return { title: t.title.notifications, ...notificationsView(page, language) };
    case 'message':
      return {
        title: t.messages[page.message].title,
        text: t.messages[page.message].text,
        message: page.message,
        howTo: [
          'signed-out',
          'link-invalid',
          'link-expired',
          'link-used',
          'busy',
          'too-many-links',
          'bank-gone',
        ].includes(page.message),
        back: ['form-invalid', 'payment-unknown', 'not-found', 'fault'].includes(page.message),
        // A link opened from another site sets the cookie, but the browser does not send a SameSite=Strict
        // cookie on the redirect that site started; a link on this page is the sandbox's own (docs/console.md).
        goOn: page.message === 'signed-out',
      };
  }
}

function clockView(clock: ClockReading, t: ConsoleTexts) {
  const minutes = Math.floor(clock.offsetSeconds / 60);
  return {
    now: instant(clock.now),
    nowIso: clock.now.toISOString(),
    today: clock.today,
    offset: t.offset(Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60),
    batchTimes: clock.batchTimes.join(', '),
    nextBatchRun: instant(clock.nextBatchRun),
    nextBatchRunIso: clock.nextBatchRun.toISOString(),
  };
}

function customerView({ customer, accounts, cards }: CustomerHoldings, t: ConsoleTexts, language: Language) {
  return {
    name: customer.name,
    number: customer.customerNumber,
    type: t.customers.type[customer.type],
    accounts: accounts.map((a) => ({
      name: a.name,
      bban: a.bban,
      number: formatAccount(a.bban),
      iban: formatAccount(a.iban),
      balance: money(a.balanceMinor, a.currency, language),
      creditLine: money(a.creditLineMinor, a.currency, language),
    })),
    cards: cards.map((k) => ({
      name: k.name,
      number: k.maskedPan,
      balance: money(k.balanceMinor, k.currency, language),
      creditLimit: money(k.creditLimitMinor, k.currency, language),
    })),
  };
}

function paymentView(p: ListedPayment, t: ConsoleTexts, language: Language) {
  return {
    id: p.id,
    href: `/console/payments/${encodeURIComponent(p.id)}`,
    creditor: p.entryCount > 1 ? t.payments.entries(p.entryCount) : p.creditorName,
    amount: money(p.amountMinor, p.currency, language),
    status: p.shownStatus,
    statusText: t.status[p.shownStatus],
    product: `${p.service}/${p.product}`,
    from: p.debtorAccount === undefined ? '–' : formatAccount(p.debtorAccount),
    created: instant(new Date(p.createdAt)),
    createdIso: p.createdAt,
  };
}

function paymentDetailView({ payment }: PaymentStory, t: ConsoleTexts, language: Language) {
  return {
    ...paymentView(payment, t, language),
    reason: payment.statusReason === undefined ? undefined : describeReason(payment.statusReason, language),
    to:
      payment.entryCount > 1
        ? t.payments.entries(payment.entryCount)
        : `${payment.creditorName}, ${formatAccount(payment.creditorAccount)}`,
    fee: money(payment.feeMinor, payment.feeCurrency, language),
    executionDate: payment.requestedExecutionDate,
    basketId: payment.basketId,
  };
}

function eventView(event: HistoryEvent, t: ConsoleTexts, language: Language) {
  const status = (s: string) => `${s} (${t.status[s as keyof ConsoleTexts['status']] ?? s})`;
  const base = {
    kind: event.kind,
    at: instant(event.at),
    atIso: event.at.toISOString(),
    reason: undefined as string | undefined,
  };
  switch (event.kind) {
    case 'created':
      return { ...base, text: t.history.created(status(event.status)) };
    case 'sca':
      return {
        ...base,
        text: t.history.sca(
          event.object === 'payment' ? 'payment' : event.object === 'basket' ? 'basket' : 'cancellation',
          event.authorisation,
          t.scaStatus[event.scaStatus] ?? event.scaStatus,
        ),
      };
    case 'authorised':
      return { ...base, text: t.history.authorised(status(event.status)) };
    case 'booked': {
      const b = event.booking;
      return {
        ...base,
        text: t.history.booked(
          b.direction,
          formatAccount(b.accountBban),
          money(b.amountMinor, b.currency, language),
          b.bookingDate,
          b.bankTransactionCode,
        ),
      };
    }
    case 'executed':
      return {
        ...base,
        text: t.history.executed(event.executionDate, status(event.status)),
        reason: event.reason === undefined ? undefined : t.history.reason(describeReason(event.reason, language)),
      };
    case 'held':
      return { ...base, text: t.history.held(status(event.status), instant(event.until), status(event.then)) };
    case 'status':
      return {
        ...base,
        text: t.history.status(status(event.status)),
        reason: event.reason === undefined ? undefined : t.history.reason(describeReason(event.reason, language)),
      };
  }
}

function consentView(c: ListedConsent, t: ConsoleTexts) {
  return {
    status: c.status,
    statusText: t.consents.status[c.status] ?? '',
    customer: c.customerNumber === undefined ? t.consents.notYetGiven : `${c.customerName ?? ''} (${c.customerNumber})`,
    shared: c.shared.map((s) =>
      s.kind === 'account' ? `${s.name} ${formatAccount(s.number)}` : `${s.name} ${s.number} (${t.consents.card})`,
    ),
    validUntil: c.validUntil === undefined ? undefined : instant(c.validUntil),
    validUntilIso: c.validUntil?.toISOString(),
    scaAt: c.scaAt === undefined ? undefined : instant(c.scaAt),
    created: instant(c.createdAt),
    session: c.tppSessionId,
  };
}

function snapshotsView(snapshots: SnapshotSummary[], limit: number, t: ConsoleTexts, language: Language) {
  const texts = SNAPSHOT_TEXTS[language];
  return {
    title: t.title.snapshots,
    t: texts,
    nameMax: SANDBOX_TEXT_MAX_LENGTH,
    listHeading: texts.listHeading(limit),
    // Newest first: the one just saved is at the top.
    snapshots: [...snapshots].reverse().map((s) => {
      const base = `/console/snapshots/${encodeURIComponent(s.id)}`;
      return {
        id: s.id,
        name: s.name ?? texts.noName,
        saved: instant(new Date(s.createdAt)),
        savedIso: s.createdAt,
        bankTime: instant(new Date(Date.parse(s.createdAt) + Number(s.clockOffsetMs))),
        rows: new Intl.NumberFormat(language === 'nb' ? 'nb-NO' : 'en-GB').format(s.rowCount),
        size: `${Math.max(1, Math.round(s.sizeBytes / 1024))} KiB`,
        restore: `${base}/restore`,
        remove: `${base}/delete`,
      };
    }),
  };
}

const instant = osloTime;
