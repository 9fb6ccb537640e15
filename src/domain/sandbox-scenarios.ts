import type { Problem } from './api-error.js';
import { type Currency, isCurrency } from './currency.js';
import { SANDBOX_CLOCK_LATEST, SANDBOX_MAINTENANCE_MAX_SECONDS, SANDBOX_SLOW_MAX_DELAY_MS } from './limits.js';
import { formatAmount, parseAmount } from './money.js';
import { type StatusReasonCode, isStatusReasonCode, statusReason } from './status-reasons.js';

/**
 * Scenarios a TPP's test arms in its sandbox bank for what is not the bank's data (docs/scenarios.md;
 * docs/decisions/0278): what the bank does with a payment when it executes it
 * (holds it pending, holds it in settlement, rejects it), and how the bank itself answers (throttled,
 * down for maintenance, slow, failing). Each rule matches until its `times` are spent, or until it is
 * disarmed.
 */
export const PAYMENT_SCENARIO_KINDS = ['payment-pending', 'payment-held', 'payment-rejected'] as const;
export const BANK_SCENARIO_KINDS = ['bank-throttled', 'bank-maintenance', 'bank-slow', 'bank-error'] as const;
export const SCENARIO_KINDS = [...PAYMENT_SCENARIO_KINDS, ...BANK_SCENARIO_KINDS] as const;

export type PaymentScenarioKind = (typeof PAYMENT_SCENARIO_KINDS)[number];
export type BankScenarioKind = (typeof BANK_SCENARIO_KINDS)[number];
export type ScenarioKind = (typeof SCENARIO_KINDS)[number];

/** `times` of a rule that matches until it is disarmed. */
export const UNLIMITED = 'unlimited';

/** Which payments a payment scenario takes: every one, or those with all of what is given. */
export interface PaymentMatch {
  debtorAccount?: { iban: string } | { bban: string };
  /** An entry (a single payment's one) of this amount, in minor units of the currency. */
  instructedAmount?: { amountMinor: bigint; currency: Currency };
  endToEndIdentification?: string;
}

export type ScenarioRule =
  | { kind: 'payment-pending'; match: PaymentMatch; until: Date; then: 'ACSC' | 'RJCT'; reason: string | undefined }
  | { kind: 'payment-held'; match: PaymentMatch; until: Date }
  | { kind: 'payment-rejected'; match: PaymentMatch; reason: string }
  | { kind: 'bank-throttled'; operationId: string | undefined; retryAfterSeconds: number }
  | { kind: 'bank-maintenance'; operationId: string | undefined; from: Date; until: Date }
  | { kind: 'bank-slow'; operationId: string | undefined; delayMs: number }
  | { kind: 'bank-error'; operationId: string };

export type PaymentRule = Extract<ScenarioRule, { kind: PaymentScenarioKind }>;
export type BankRule = Extract<ScenarioRule, { kind: BankScenarioKind }>;

export interface ArmedScenario {
  id: string;
  rule: ScenarioRule;
  /** Matches left; undefined: until disarmed (a maintenance window: every request in it). */
  timesLeft: number | undefined;
  createdAt: Date;
}

export function isPaymentRule(rule: ScenarioRule): rule is PaymentRule {
  return (PAYMENT_SCENARIO_KINDS as readonly string[]).includes(rule.kind);
}

function isBankRule(rule: ScenarioRule): rule is BankRule {
  return !isPaymentRule(rule);
}

/** What the rule does to the payments it takes: hold them (pending, or in settlement) until a time, or reject them. */
export type PaymentTreatment =
  { hold: 'PDNG' | 'ACSP'; until: Date; then: 'ACSC' | 'RJCT'; reason: string | undefined } | { reject: string };

export function treatmentOf(rule: PaymentRule): PaymentTreatment {
  switch (rule.kind) {
    case 'payment-pending':
      return { hold: 'PDNG', until: rule.until, then: rule.then, reason: rule.reason };
    case 'payment-held':
      return { hold: 'ACSP', until: rule.until, then: 'ACSC', reason: undefined };
    case 'payment-rejected':
      return { reject: rule.reason };
  }
}

/** A payment as a payment scenario sees it when the bank executes it. */
export interface PaymentFacts {
  debtorBban: string | undefined;
  debtorIban: string | undefined;
  entries: readonly { amountMinor: bigint; currency: string; endToEndId: string }[];
}

/** Whether the payment has every part of the match. */
export function matchesPayment(match: PaymentMatch, payment: PaymentFacts): boolean {
  if (match.debtorAccount !== undefined && !sameAccount(match.debtorAccount, payment)) return false;
  const amount = match.instructedAmount;
  if (
    amount !== undefined &&
    !payment.entries.some((e) => e.amountMinor === amount.amountMinor && e.currency === amount.currency)
  )
    return false;
  const endToEnd = match.endToEndIdentification;
  return endToEnd === undefined || payment.entries.some((e) => e.endToEndId === endToEnd);
}

function sameAccount(account: { iban: string } | { bban: string }, payment: PaymentFacts): boolean {
  const paymentBban = payment.debtorBban ?? norwegianBbanOf(payment.debtorIban);
  if ('bban' in account) return paymentBban === account.bban;
  const iban = account.iban.toUpperCase();
  if (payment.debtorIban !== undefined) return payment.debtorIban.toUpperCase() === iban;
  return paymentBban !== undefined && paymentBban === norwegianBbanOf(iban);
}

function norwegianBbanOf(iban: string | undefined): string | undefined {
  const upper = iban?.toUpperCase();
  return upper !== undefined && upper.startsWith('NO') ? upper.slice(4) : undefined;
}

/**
 * The bank fault that answers a request for this operation at this instant of the bank's clock: the
 * first armed (oldest first) whose operation it is (or that names none) and, for a maintenance
 * window, that has begun and not ended.
 */
export function faultFor(
  armed: readonly ArmedScenario[],
  operationId: string,
  now: Date,
): (ArmedScenario & { rule: BankRule }) | undefined {
  for (const scenario of armed) {
    const rule = scenario.rule;
    if (!isBankRule(rule)) continue;
    if (rule.operationId !== undefined && rule.operationId !== operationId) continue;
    if (scenario.timesLeft === 0) continue;
    if (rule.kind === 'bank-maintenance' && (now < rule.from || now >= rule.until)) continue;
    return { ...scenario, rule };
  }
  return undefined;
}

/** Seconds a client waits before it tries again: for a maintenance window, until it ends (at least 1). */
export function retryAfterSeconds(rule: BankRule, now: Date): number | undefined {
  if (rule.kind === 'bank-throttled') return rule.retryAfterSeconds;
  if (rule.kind === 'bank-maintenance') return Math.max(1, Math.ceil((rule.until.getTime() - now.getTime()) / 1000));
  return undefined;
}

/** What reading an armed scenario's body needs to know: the bank's time, and the operations a fault may name. */
export interface ScenarioContext {
  now: Date;
  /** The operationIds of the bank's API operations (every signed one but the sandbox's own). */
  faultableOperations: ReadonlySet<string>;
  /** The operationIds of the sandbox's own operations, which no fault answers. */
  sandboxOperations: ReadonlySet<string>;
}

export type ScenarioReading =
  { ok: true; rule: ScenarioRule; timesLeft: number | undefined } | { ok: false; problems: Problem[] };

type Body = Record<string, unknown>;

/**
 * Reads the body of POST /v1/sandbox/scenarios after its schema passed it (the fields' types and
 * bounds): which fields each kind takes, the instants of the bank's clock, the operationId, the
 * reason. Every problem at once, each at its path.
 */
export function readScenario(body: Body, context: ScenarioContext): ScenarioReading {
  const problems: Problem[] = [];
  const kind = body.kind as ScenarioKind;
  const problem = (path: string, text: string) => problems.push({ code: 'FORMAT_ERROR', path, text });
  for (const field of Object.keys(body)) {
    if (field !== 'kind' && !FIELDS[kind].includes(field))
      problem(`$.${field}`, `$.${field} is not a field of ${kind} (it takes ${FIELDS[kind].join(', ')})`);
  }
  const times = timesOf(body, kind);
  const rule = ruleOf(kind, body, context, problem);
  if (problems.length > 0 || rule === undefined) return { ok: false, problems };
  return { ok: true, rule, timesLeft: times };
}

/** The fields each kind takes besides `kind`. */
const FIELDS: Record<ScenarioKind, readonly string[]> = {
  'payment-pending': ['match', 'until', 'then', 'reasonCode', 'reasonText', 'times'],
  'payment-held': ['match', 'until', 'times'],
  'payment-rejected': ['match', 'reasonCode', 'reasonText', 'times'],
  'bank-throttled': ['operationId', 'retryAfterSeconds', 'times'],
  'bank-maintenance': ['operationId', 'from', 'until'],
  'bank-slow': ['operationId', 'delayMs', 'times'],
  'bank-error': ['operationId', 'times'],
};

/** `times` as given (the schema bounds it), 1 when left out, undefined for "unlimited" and for a window. */
function timesOf(body: Body, kind: ScenarioKind): number | undefined {
  if (kind === 'bank-maintenance' || body.times === UNLIMITED) return undefined;
  return typeof body.times === 'number' ? body.times : 1;
}

function ruleOf(
  kind: ScenarioKind,
  body: Body,
  context: ScenarioContext,
  problem: (path: string, text: string) => void,
): ScenarioRule | undefined {
  switch (kind) {
    case 'payment-pending': {
      const match = matchOf(body.match, problem);
      const until = laterInstant(body.until, '$.until', context.now, problem);
      const then = body.then === 'RJCT' ? 'RJCT' : 'ACSC';
      if (then === 'ACSC' && (body.reasonCode !== undefined || body.reasonText !== undefined))
        problem(
          '$.reasonCode',
          '$.reasonCode and $.reasonText go with "then": "RJCT" only: a payment that settles has no reason',
        );
      const reason = then === 'RJCT' ? reasonOf(body, problem) : undefined;
      return match && until ? { kind, match, until, then, reason } : undefined;
    }
    case 'payment-held': {
      const match = matchOf(body.match, problem);
      const until = laterInstant(body.until, '$.until', context.now, problem);
      return match && until ? { kind, match, until } : undefined;
    }
    case 'payment-rejected': {
      const match = matchOf(body.match, problem);
      const reason = reasonOf(body, problem);
      return match ? { kind, match, reason } : undefined;
    }
    case 'bank-throttled': {
      const operationId = operationOf(body.operationId, false, context, problem);
      const retryAfterSeconds = typeof body.retryAfterSeconds === 'number' ? body.retryAfterSeconds : 1;
      return operationId === null ? undefined : { kind, operationId, retryAfterSeconds };
    }
    case 'bank-maintenance': {
      const operationId = operationOf(body.operationId, false, context, problem);
      const from = body.from === undefined ? context.now : instantOf(body.from, '$.from', problem);
      const until = laterInstant(
        body.until,
        '$.until',
        from ?? context.now,
        problem,
        from === undefined ? 'now' : '$.from',
      );
      if (
        until !== undefined &&
        until.getTime() - (from ?? context.now).getTime() > SANDBOX_MAINTENANCE_MAX_SECONDS * 1000
      )
        problem(
          '$.until',
          `$.until: a maintenance window lasts at most ${SANDBOX_MAINTENANCE_MAX_SECONDS / 86_400} days (SANDBOX_MAINTENANCE_MAX_SECONDS)`,
        );
      return operationId === null || from === undefined || until === undefined
        ? undefined
        : { kind, operationId, from, until };
    }
    case 'bank-slow': {
      const operationId = operationOf(body.operationId, false, context, problem);
      if (typeof body.delayMs !== 'number') {
        problem(
          '$.delayMs',
          `$.delayMs is required: how long the bank takes to answer, 1 to ${SANDBOX_SLOW_MAX_DELAY_MS} ms`,
        );
        return undefined;
      }
      return operationId === null ? undefined : { kind, operationId, delayMs: body.delayMs };
    }
    case 'bank-error': {
      const operationId = operationOf(body.operationId, true, context, problem);
      return operationId === null || operationId === undefined ? undefined : { kind, operationId };
    }
  }
}

/** The operation a fault answers: one of the bank's API operations; undefined: every one (null: a problem). */
function operationOf(
  value: unknown,
  required: boolean,
  context: ScenarioContext,
  problem: (path: string, text: string) => void,
): string | undefined | null {
  if (value === undefined) {
    if (!required) return undefined;
    problem(
      '$.operationId',
      '$.operationId is required: the operation that fails (an operationId of /v1/openapi.json)',
    );
    return null;
  }
  const id = value as string;
  if (context.faultableOperations.has(id)) return id;
  problem(
    '$.operationId',
    context.sandboxOperations.has(id)
      ? `$.operationId ${id} is an operation of the sandbox's test data, which scenarios never answer for: name an operation of the bank's API`
      : `$.operationId ${id} is no operation of this bank's API; the operationIds are those of /v1/openapi.json, such as getAccountList or initiatePaymentNorwegianDomesticCreditTransfers`,
  );
  return null;
}

function matchOf(value: unknown, problem: (path: string, text: string) => void): PaymentMatch | undefined {
  if (value === undefined) return {};
  const m = value as Body;
  const match: PaymentMatch = {};
  const account = m.debtorAccount as Body | undefined;
  if (account !== undefined) {
    const iban = account.iban as string | undefined;
    const bban = account.bban as string | undefined;
    if ((iban === undefined) === (bban === undefined))
      problem('$.match.debtorAccount', '$.match.debtorAccount names the account by iban or by bban, one of them');
    else match.debtorAccount = iban !== undefined ? { iban: iban.toUpperCase() } : { bban: bban! };
  }
  const amount = m.instructedAmount as Body | undefined;
  if (amount !== undefined) {
    const currency = amount.currency;
    const parsed = isCurrency(currency) ? parseAmount(amount.amount as string, currency) : undefined;
    if (!isCurrency(currency))
      problem('$.match.instructedAmount.currency', '$.match.instructedAmount.currency is not an ISO 4217 currency');
    else if (parsed?.ok !== true)
      problem(
        '$.match.instructedAmount.amount',
        `$.match.instructedAmount.amount ${parsed?.reason ?? 'is not an amount'}`,
      );
    else match.instructedAmount = { amountMinor: parsed.minor, currency };
  }
  if (typeof m.endToEndIdentification === 'string') match.endToEndIdentification = m.endToEndIdentification;
  return match;
}

/** The statusReason a rejecting rule gives: its code, and the text given or the code's own words. */
function reasonOf(body: Body, problem: (path: string, text: string) => void): string {
  const code = body.reasonCode ?? 'MS03';
  const text = typeof body.reasonText === 'string' ? body.reasonText : undefined;
  if (!isStatusReasonCode(code)) {
    problem('$.reasonCode', '$.reasonCode is not a reason code the bank gives');
    return statusReason('MS03');
  }
  // The schema bounds reasonText (SANDBOX_SCENARIO_REASON_MAX_LENGTH): the reason fits a tppMessage's text.
  return statusReason(code as StatusReasonCode, text);
}

function instantOf(value: unknown, path: string, problem: (path: string, text: string) => void): Date | undefined {
  const at = new Date(value as string);
  if (Number.isNaN(at.getTime())) {
    problem(path, `${path} is not a date-time (RFC 3339, such as 2026-11-27T09:00:00+01:00)`);
    return undefined;
  }
  if (at > SANDBOX_CLOCK_LATEST) {
    problem(path, `${path} is after ${SANDBOX_CLOCK_LATEST.toISOString()}, the latest the sandbox clock shows`);
    return undefined;
  }
  return at;
}

/** An instant of the bank's clock after another (the bank's time now, or the window's start). */
function laterInstant(
  value: unknown,
  path: string,
  after: Date,
  problem: (path: string, text: string) => void,
  afterName = 'now',
): Date | undefined {
  if (value === undefined) {
    problem(path, `${path} is required: an instant of the bank's clock (GET /v1/sandbox/clock)`);
    return undefined;
  }
  const at = instantOf(value, path, problem);
  if (at === undefined) return undefined;
  if (at <= after) {
    problem(
      path,
      `${path} ${at.toISOString()} is not after ${afterName === 'now' ? "the bank's time now" : afterName}, ${after.toISOString()} (the sandbox clock: GET /v1/sandbox/clock)`,
    );
    return undefined;
  }
  return at;
}

/** The rule as its answers show it and as it is stored: amounts as decimal strings, instants in UTC. */
export function ruleView(rule: ScenarioRule): Record<string, unknown> {
  const view: Record<string, unknown> = { kind: rule.kind };
  if ('match' in rule) view.match = matchView(rule.match);
  if ('operationId' in rule && rule.operationId !== undefined) view.operationId = rule.operationId;
  if ('from' in rule) view.from = rule.from.toISOString();
  if ('until' in rule) view.until = rule.until.toISOString();
  if ('then' in rule) view.then = rule.then;
  if ('reason' in rule && rule.reason !== undefined) view.statusReason = rule.reason;
  if ('retryAfterSeconds' in rule) view.retryAfterSeconds = rule.retryAfterSeconds;
  if ('delayMs' in rule) view.delayMs = rule.delayMs;
  return view;
}

function matchView(match: PaymentMatch): Record<string, unknown> {
  return {
    ...(match.debtorAccount === undefined ? {} : { debtorAccount: match.debtorAccount }),
    ...(match.instructedAmount === undefined
      ? {}
      : {
          instructedAmount: {
            amount: formatAmount(match.instructedAmount.amountMinor, match.instructedAmount.currency),
            currency: match.instructedAmount.currency,
          },
        }),
    ...(match.endToEndIdentification === undefined ? {} : { endToEndIdentification: match.endToEndIdentification }),
  };
}

/** A stored rule (ruleView's JSON) read back; a row that does not read is a broken store. */
export function ruleFromView(view: Record<string, unknown>): ScenarioRule {
  const kind = view.kind as ScenarioKind;
  const match = (): PaymentMatch => {
    const m = (view.match ?? {}) as Record<string, unknown>;
    const amount = m.instructedAmount as { amount: string; currency: Currency } | undefined;
    const parsed = amount === undefined ? undefined : parseAmount(amount.amount, amount.currency);
    if (parsed?.ok === false)
      throw new Error(`a stored sandbox scenario's amount ${amount!.amount} does not read: ${parsed.reason}`);
    return {
      ...(m.debtorAccount === undefined
        ? {}
        : { debtorAccount: m.debtorAccount as PaymentMatch['debtorAccount'] & object }),
      ...(amount === undefined
        ? {}
        : { instructedAmount: { amountMinor: parsed!.ok ? parsed!.minor : 0n, currency: amount.currency } }),
      ...(typeof m.endToEndIdentification === 'string' ? { endToEndIdentification: m.endToEndIdentification } : {}),
    };
  };
  const operationId = typeof view.operationId === 'string' ? view.operationId : undefined;
  const at = (key: string) => new Date(view[key] as string);
  const reason = typeof view.statusReason === 'string' ? view.statusReason : undefined;
  switch (kind) {
    case 'payment-pending':
      return { kind, match: match(), until: at('until'), then: view.then === 'RJCT' ? 'RJCT' : 'ACSC', reason };
    case 'payment-held':
      return { kind, match: match(), until: at('until') };
    case 'payment-rejected':
      return { kind, match: match(), reason: reason ?? statusReason('MS03') };
    case 'bank-throttled':
      return { kind, operationId, retryAfterSeconds: Number(view.retryAfterSeconds) };
    case 'bank-maintenance':
      return { kind, operationId, from: at('from'), until: at('until') };
    case 'bank-slow':
      return { kind, operationId, delayMs: Number(view.delayMs) };
    case 'bank-error':
      return { kind, operationId: operationId! };
    default:
      throw new Error(`a stored sandbox scenario has kind ${String(kind)}, which the server does not know`);
  }
}

/** When a rule stops applying by itself: the end of a maintenance window; undefined for the others. */
export function endOf(rule: ScenarioRule): Date | undefined {
  return rule.kind === 'bank-maintenance' ? rule.until : undefined;
}

/** What the bank does with a payment it takes for execution: books it, rejects it for a reason, or holds it until a time. */
export type Course =
  | { kind: 'book' }
  | { kind: 'reject'; reason: string }
  | { kind: 'hold'; status: 'PDNG' | 'ACSP'; until: Date; then: 'ACSC' | 'RJCT'; reason: string | undefined };

/** A held payment whose time has come: executed as any payment (ACSC), or rejected with the rule's reason. */
export function settlementOf(then: 'ACSC' | 'RJCT', reason: string | undefined): Course {
  return then === 'RJCT' ? { kind: 'reject', reason: reason ?? statusReason('MS03') } : { kind: 'book' };
}

/** A payment a rule took, at the run's instant: held until the rule's time, or (that time passed already) what it becomes then. */
export function courseOf(treatment: PaymentTreatment, at: Date): Course {
  if ('reject' in treatment) return { kind: 'reject', reason: treatment.reject };
  if (treatment.until <= at) return settlementOf(treatment.then, treatment.reason);
  return {
    kind: 'hold',
    status: treatment.hold,
    until: treatment.until,
    then: treatment.then,
    reason: treatment.reason,
  };
}
