import type { Problem } from './api-error.js';
import { isCurrency } from './currency.js';
import { SANDBOX_CLOCK_LATEST, SANDBOX_MAINTENANCE_MAX_SECONDS, SANDBOX_SLOW_MAX_DELAY_MS } from './limits.js';
import { parseAmount } from './money.js';
import {
  type BankRule,
  type BankScenarioKind,
  PAYMENT_SCENARIO_KINDS,
  type PaymentMatch,
  type PaymentRule,
  type PaymentScenarioKind,
  type ScenarioKind,
  type ScenarioRule,
  UNLIMITED,
} from './sandbox-scenarios.js';
import { type StatusReasonCode, isStatusReasonCode, statusReason } from './status-reasons.js';

/**
 * A scenario as a TPP's test arms it (POST /v1/sandbox/scenarios) read into its rule
 * (sandbox-scenarios.ts), with every problem of the body at its path.
 */

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
/** Records a problem of the body at its path. */
type Report = (path: string, text: string) => void;

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

function ruleOf(kind: ScenarioKind, body: Body, context: ScenarioContext, problem: Report): ScenarioRule | undefined {
  return isPaymentKind(kind) ? paymentRuleOf(kind, body, context, problem) : bankRuleOf(kind, body, context, problem);
}

function isPaymentKind(kind: ScenarioKind): kind is PaymentScenarioKind {
  return (PAYMENT_SCENARIO_KINDS as readonly string[]).includes(kind);
}

function paymentRuleOf(
  kind: PaymentScenarioKind,
  body: Body,
  context: ScenarioContext,
  problem: Report,
): PaymentRule | undefined {
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
  }
}

function bankRuleOf(
  kind: BankScenarioKind,
  body: Body,
  context: ScenarioContext,
  problem: Report,
): BankRule | undefined {
  switch (kind) {
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
  problem: Report,
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

function matchOf(value: unknown, problem: Report): PaymentMatch | undefined {
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
function reasonOf(body: Body, problem: Report): string {
  const code = body.reasonCode ?? 'MS03';
  const text = typeof body.reasonText === 'string' ? body.reasonText : undefined;
  if (!isStatusReasonCode(code)) {
    problem('$.reasonCode', '$.reasonCode is not a reason code the bank gives');
    return statusReason('MS03');
  }
  // The schema bounds reasonText (SANDBOX_SCENARIO_REASON_MAX_LENGTH): the reason fits a tppMessage's text.
  return statusReason(code as StatusReasonCode, text);
}

function instantOf(value: unknown, path: string, problem: Report): Date | undefined {
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
function laterInstant(value: unknown, path: string, after: Date, problem: Report, afterName = 'now'): Date | undefined {
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
