import {
  END_TO_END_IDENTIFICATION_MAX_LENGTH,
  MAX_SANDBOX_SCENARIO_TIMES,
  SANDBOX_MAINTENANCE_MAX_SECONDS,
  SANDBOX_RETRY_AFTER_MAX_SECONDS,
  SANDBOX_SCENARIO_REASON_MAX_LENGTH,
  SANDBOX_SLOW_MAX_DELAY_MS,
} from '../../domain/limits.js';
import { SCENARIO_KINDS, type ScenarioKind, UNLIMITED } from '../../domain/sandbox-scenarios.js';
import { STATUS_REASON_CODE_LIST } from '../../domain/status-reasons.js';
import { formText } from './console-forms.js';

/**
 * The console's form that arms a scenario (docs/scenarios.md): one kind at a time, with the fields
 * that kind takes, read into the body POST /v1/sandbox/scenarios takes, which the scenarios' service
 * then judges by its own rules. Instants are given as hours or minutes from the bank's time now: what
 * a developer at the console thinks in, and no time zone to get wrong.
 */

/** A field of the form: its name, and what it holds. */
export type ScenarioField =
  | 'debtorBban'
  | 'amount'
  | 'currency'
  | 'endToEnd'
  | 'holdHours'
  | 'then'
  | 'reasonCode'
  | 'reasonText'
  | 'operationId'
  | 'retryAfterSeconds'
  | 'startsInMinutes'
  | 'lastsMinutes'
  | 'delayMs'
  | 'times';

const MATCH: readonly ScenarioField[] = ['debtorBban', 'amount', 'currency', 'endToEnd'];

/** The fields of each kind, in the order the form shows them. */
export const SCENARIO_FIELDS: Record<ScenarioKind, readonly ScenarioField[]> = {
  'payment-pending': [...MATCH, 'holdHours', 'then', 'reasonCode', 'reasonText', 'times'],
  'payment-held': [...MATCH, 'holdHours', 'times'],
  'payment-rejected': [...MATCH, 'reasonCode', 'reasonText', 'times'],
  'bank-throttled': ['operationId', 'retryAfterSeconds', 'times'],
  'bank-maintenance': ['operationId', 'startsInMinutes', 'lastsMinutes'],
  'bank-slow': ['operationId', 'delayMs', 'times'],
  'bank-error': ['operationId', 'times'],
};

/** A payment is held at most a year: far beyond any test, and the clock moves there in one step. */
const HOLD_HOURS_MAX = 366 * 24;
const MAINTENANCE_MINUTES_MAX = SANDBOX_MAINTENANCE_MAX_SECONDS / 60;
/** A maintenance window starts at most a year ahead. */
const STARTS_IN_MINUTES_MAX = 366 * 24 * 60;

/** The bounds of each whole-number field, for the form's inputs and for reading them. */
export const NUMBER_BOUNDS: Partial<Record<ScenarioField, { min: number; max: number; initial: number }>> = {
  holdHours: { min: 1, max: HOLD_HOURS_MAX, initial: 24 },
  retryAfterSeconds: { min: 1, max: SANDBOX_RETRY_AFTER_MAX_SECONDS, initial: 60 },
  startsInMinutes: { min: 0, max: STARTS_IN_MINUTES_MAX, initial: 0 },
  lastsMinutes: { min: 1, max: MAINTENANCE_MINUTES_MAX, initial: 60 },
  delayMs: { min: 1, max: SANDBOX_SLOW_MAX_DELAY_MS, initial: 5000 },
  times: { min: 1, max: MAX_SANDBOX_SCENARIO_TIMES, initial: 1 },
};

/** The longest text each text field takes. */
export const TEXT_MAX_LENGTHS: Partial<Record<ScenarioField, number>> = {
  debtorBban: 11,
  amount: 20,
  currency: 3,
  endToEnd: END_TO_END_IDENTIFICATION_MAX_LENGTH,
  reasonText: SANDBOX_SCENARIO_REASON_MAX_LENGTH,
};

export const REASON_CODES = STATUS_REASON_CODE_LIST;

export function isScenarioKind(value: unknown): value is ScenarioKind {
  return typeof value === 'string' && (SCENARIO_KINDS as readonly string[]).includes(value);
}

/** The body to arm, or the fields that are not as the form asks (by name). */
export type ScenarioFormReading = { body: Record<string, unknown> } | { wrong: ScenarioField[] };

/**
 * Reads the posted form of a kind into the body of POST /v1/sandbox/scenarios: only the kind's own
 * fields, each of the type and within the bounds the operation's schema sets (the service takes a
 * body that passed it), instants from the bank's time `now`.
 */
export function readScenarioForm(
  kind: ScenarioKind,
  form: Record<string, unknown>,
  now: Date,
  operations: ReadonlySet<string>,
): ScenarioFormReading {
  const fields = SCENARIO_FIELDS[kind];
  const read = new PostedFields(form);
  const later = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const body: Record<string, unknown> = { kind };

  if (fields.includes('debtorBban')) {
    const match = readMatch(read);
    if (Object.keys(match).length > 0) body.match = match;
  }
  if (fields.includes('holdHours')) {
    const hours = read.number('holdHours');
    if (hours !== undefined) body.until = later(hours * 3_600_000);
  }
  if (fields.includes('then')) body.then = form.then === 'RJCT' ? 'RJCT' : 'ACSC';
  // A reason goes with a rejection only (a pending payment's, when it ends rejected).
  if (fields.includes('reasonCode') && (kind === 'payment-rejected' || body.then === 'RJCT')) {
    const code = form.reasonCode;
    if (typeof code === 'string' && (REASON_CODES as readonly string[]).includes(code)) body.reasonCode = code;
    else read.wrong.push('reasonCode');
    const reasonText = read.text('reasonText');
    if (reasonText !== undefined) body.reasonText = reasonText;
  }
  if (fields.includes('operationId')) {
    const operationId = form.operationId;
    if (typeof operationId === 'string' && operations.has(operationId)) body.operationId = operationId;
    else if (kind === 'bank-error' || (operationId !== '' && operationId !== undefined)) read.wrong.push('operationId');
  }
  if (fields.includes('retryAfterSeconds')) body.retryAfterSeconds = read.number('retryAfterSeconds');
  if (fields.includes('delayMs')) body.delayMs = read.number('delayMs');
  if (fields.includes('startsInMinutes')) {
    const starts = read.number('startsInMinutes');
    const lasts = read.number('lastsMinutes');
    if (starts !== undefined && lasts !== undefined) {
      body.from = later(starts * 60_000);
      body.until = later((starts + lasts) * 60_000);
    }
  }
  if (fields.includes('times')) {
    // Left empty, the API's default: once.
    if (form.unlimited === 'yes') body.times = UNLIMITED;
    else if (typeof form.times === 'string' && form.times.trim() !== '') body.times = read.number('times');
  }
  return read.wrong.length > 0 ? { wrong: read.wrong } : { body };
}

/** The posted form's fields, read as text or as whole numbers; those not as the form asks are noted, in the order read. */
class PostedFields {
  readonly wrong: ScenarioField[] = [];

  constructor(readonly form: Record<string, unknown>) {}

  text(name: ScenarioField): string | undefined {
    const text = formText(this.form[name], TEXT_MAX_LENGTHS[name] ?? 100);
    if (text !== null) return text;
    this.wrong.push(name);
    return undefined;
  }

  number(name: ScenarioField): number | undefined {
    const bounds = NUMBER_BOUNDS[name]!;
    const value = this.form[name];
    const text = typeof value === 'string' ? value.trim() : '';
    const number = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (!(number >= bounds.min && number <= bounds.max)) {
      this.wrong.push(name);
      return undefined;
    }
    return number;
  }
}

/** Which payments a payment scenario applies to: by debtor account, amount, end-to-end id; each left empty matches any. */
function readMatch(read: PostedFields): Record<string, unknown> {
  const match: Record<string, unknown> = {};
  const bban = read.text('debtorBban');
  if (bban !== undefined) {
    if (/^\d{11}$/.test(bban)) match.debtorAccount = { bban };
    else read.wrong.push('debtorBban');
  }
  const amount = read.text('amount');
  if (amount !== undefined) {
    const currency = (read.text('currency') ?? 'NOK').toUpperCase();
    if (!/^\d{1,15}(\.\d{1,5})?$/.test(amount)) read.wrong.push('amount');
    else if (!/^[A-Z]{3}$/.test(currency)) read.wrong.push('currency');
    else match.instructedAmount = { amount, currency };
  }
  const endToEnd = read.text('endToEnd');
  if (endToEnd !== undefined) match.endToEndIdentification = endToEnd;
  return match;
}
