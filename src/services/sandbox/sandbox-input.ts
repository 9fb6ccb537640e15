import type { Json } from '../../domain/json.js';
import { acceptedFixes } from '../../domain/accept-fix.js';
import { ApiError, type Problem, type TppMessage, toTppMessage } from '../../domain/api-error.js';
import type { CustomerType } from '../../domain/bank.js';
import { isCalendarDate } from '../../domain/clock.js';
import { type Currency, isCurrency } from '../../domain/currency.js';
import {
  ACCOUNT_NAME_LONGER_MAX_LENGTH,
  ACCOUNT_NAME_MAX_LENGTH,
  SANDBOX_TRANSACTIONS_PAGE_DEFAULT,
} from '../../domain/limits.js';
import { formatAmount } from '../../domain/money.js';
import { type SandboxAmountRules, parseSandboxAmount } from '../../domain/sandbox-amount.js';
import { type BalanceType, balanceTypeOf, currentBalanceIndex } from '../../domain/sandbox-rules.js';
import type { TransactionPage } from '../../store/sandbox-records.js';

/** What the sandbox's test-data operations share: reading loose bodies, their checks, and their errors. */

export interface ListQuery {
  fromDate?: string;
  toDate?: string;
  offset?: number;
  limit?: number;
}

export function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function customerTypeOf(text: string): CustomerType | undefined {
  const upper = text.toUpperCase();
  return upper === 'PRIVATE' || upper === 'CORPORATE' ? upper : undefined;
}

/** spec, Limits: the name of account and card account details is 35 characters, 70 with accept-fix longer-name. */
export function accountNameProblem(
  name: unknown,
  path: string,
  acceptFix: string | undefined,
  today: string,
): Problem | undefined {
  if (typeof name !== 'string') return undefined;
  const length = [...name].length;
  if (length <= ACCOUNT_NAME_MAX_LENGTH || length > ACCOUNT_NAME_LONGER_MAX_LENGTH) return undefined;
  if (acceptedFixes(acceptFix, today).active.has('longer-name')) return undefined;
  return {
    code: 'FORMAT_ERROR',
    path,
    text: `${path} must be at most ${ACCOUNT_NAME_MAX_LENGTH} characters long (it is ${length}); ${ACCOUNT_NAME_LONGER_MAX_LENGTH} with x-accept-fix longer-name`,
  };
}

export function amountOf(
  value: unknown,
  currency: Currency,
  path: string,
  rules: SandboxAmountRules,
  problems: Problem[],
): bigint | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  const result = parseSandboxAmount(value, currency, rules);
  if (result.ok) return result.minor;
  problems.push({ code: 'FORMAT_ERROR', path, text: `${path} ${result.reason}` });
  return undefined;
}

export function currencyProblem(path: string, given: string, expected: string, of: string): Problem {
  return {
    code: 'FORMAT_ERROR',
    path,
    text: `${path} is ${given}, but ${of} is in ${expected}: give amounts in the currency of ${of}`,
  };
}

/**
 * The balances of an account or card account: each type one the sandbox knows, each in the account's
 * currency. The first of type interimAvailable, expected or closingBooked (else the first) is the
 * account's balance.
 */
export function balancesOf(
  value: unknown,
  currency: Currency,
  problems: Problem[],
): { balanceMinor: bigint; view: Json[] } {
  if (!Array.isArray(value)) return { balanceMinor: 0n, view: [] };
  const types: (BalanceType | undefined)[] = [];
  const amounts: (bigint | undefined)[] = [];
  const view: Json[] = [];
  for (const [index, entry] of value.entries()) {
    const path = `$.balances[${index}]`;
    const balance = asObject(entry);
    const type = typeof balance.balanceType === 'string' ? balanceTypeOf(balance.balanceType) : undefined;
    if (typeof balance.balanceType === 'string' && type === undefined) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.balanceType`,
        text: `${path}.balanceType '${balance.balanceType}' is not a balance type: closingBooked, expected, openingBooked, interimAvailable, interimBooked, forwardAvailable, nonInvoiced or authorised (any case, EXPECTED as well)`,
      });
    }
    types.push(type);
    const amount = asObject(balance.balanceAmount);
    let minor: bigint | undefined;
    if (isCurrency(amount.currency)) {
      if (amount.currency !== currency)
        problems.push(currencyProblem(`${path}.balanceAmount.currency`, amount.currency, currency, 'the account'));
      else
        minor = amountOf(
          amount.amount,
          currency,
          `${path}.balanceAmount.amount`,
          { negative: true, zero: true },
          problems,
        );
    }
    amounts.push(minor);
    view.push(
      withoutEmpty({
        balanceType: type,
        balanceAmount: minor === undefined ? undefined : { amount: formatAmount(minor, currency), currency },
        referenceDate: balance.referenceDate,
        lastChangeDateTime: balance.lastChangeDateTime,
        lastCommittedTransaction: balance.lastCommittedTransaction,
        creditLimitIncluded: balance.creditLimitIncluded,
      }),
    );
  }
  const index = currentBalanceIndex(types);
  return { balanceMinor: index === undefined ? 0n : (amounts[index] ?? 0n), view };
}

/** The platform's rule: dates not after today (Norway, business clock), and the booking date not after the value date. */
export function dateProblems(t: Json, path: string, today: string, fields: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  for (const field of fields) {
    const value = t[field];
    if (typeof value === 'string' && isCalendarDate(value) && value > today) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.${field}`,
        text: `${path}.${field} ${value} is after today (${today}, Norwegian time): test transactions are history`,
      });
    }
  }
  const { bookingDate, valueDate } = t;
  if (
    typeof bookingDate === 'string' &&
    typeof valueDate === 'string' &&
    isCalendarDate(bookingDate) &&
    isCalendarDate(valueDate) &&
    bookingDate > valueDate
  ) {
    problems.push({
      code: 'FORMAT_ERROR',
      path: `${path}.bookingDate`,
      text: `${path}.bookingDate ${bookingDate} is after ${path}.valueDate ${valueDate}; the booking date must not be after the value date`,
    });
  }
  return problems;
}

/** The platform's example bodies send optional text empty (""): read as absent, and left out of answers. */
export function withoutEmpty(object: Json): Json {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined && value !== ''));
}

export function pageOf(query: ListQuery): TransactionPage {
  if (query.fromDate !== undefined && query.toDate !== undefined && query.fromDate > query.toDate) {
    throw ApiError.of([
      {
        code: 'FORMAT_ERROR',
        path: 'query:toDate',
        text: `query parameter toDate ${query.toDate} is before fromDate ${query.fromDate}`,
      },
    ]);
  }
  return {
    fromDate: query.fromDate,
    toDate: query.toDate,
    offset: query.offset ?? 0,
    limit: query.limit ?? SANDBOX_TRANSACTIONS_PAGE_DEFAULT,
  };
}

/**
 * The schema's problems, and the service's own on fields the schema did not already refuse (nor a
 * field around them). Linear: each path's ancestors are looked up in a set, not compared with every
 * refused path, which would be quadratic in a body of thousands of each (docs/decisions/0138).
 */
export function reject(schemaProblems: readonly Problem[], problems: readonly Problem[]): void {
  const refused = new Set(schemaProblems.map((p) => p.path).filter((p): p is string => p !== undefined));
  const covered = (path: string | undefined) =>
    path !== undefined && refused.size > 0 && pathAndAncestors(path).some((p) => refused.has(p));
  const all = [...schemaProblems, ...problems.filter((p) => !covered(p.path))];
  if (all.length > 0) throw ApiError.of(all);
}

/** `$.a[0].b` → `$.a[0].b`, `$.a[0]`, `$.a`, `$`: the path cut before each `.` and `[` (outside quoted names too: a cut inside one only adds a path no problem has). */
function pathAndAncestors(path: string): string[] {
  const paths = [path];
  for (let i = path.length - 1; i > 0; i--) {
    const c = path[i];
    if (c === '.' || c === '[') paths.push(path.slice(0, i));
  }
  return paths;
}

export function conflict(path: string, text: string): ApiError {
  return ApiError.of([{ code: 'CONFLICT', path, text }]);
}

export function unknown(param: string, kind: string, id: string, of = ''): ApiError {
  const text = `no ${kind} ${id}${of === '' ? '' : ` ${of}`} is known to this TPP`;
  return ApiError.of([{ code: 'RESOURCE_UNKNOWN', path: `path:${param}`, text }]);
}

/**
 * A create's answer with the warnings about its test data: WARNING tppMessages beside the resource,
 * saying what the sandbox took and what will happen later (docs/sandbox.md). Without warnings, the
 * resource alone.
 */

/** The sandbox's lenient warnings (what a real bank would refuse later) as an answer's tppMessages. */
export function asWarnings(problems: readonly Problem[]): TppMessage[] {
  return problems.map((problem) => toTppMessage(problem, 'WARNING'));
}
