import type { Currency } from './currency.js';
import { formatAmount, parseAmount } from './money.js';
import { statusReason } from './status-reasons.js';

/**
 * Scenarios a TPP's test arms in its sandbox bank for what is not the bank's data (docs/scenarios.md;
 * docs/decisions/0278): what the bank does with a payment when it executes it
 * (holds it pending, holds it in settlement, rejects it), and how the bank itself answers (throttled,
 * down for maintenance, slow, failing). Each rule matches until its `times` are spent, or until it is
 * disarmed. How a TPP's request arms one is read in sandbox-scenario-reading.ts.
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
