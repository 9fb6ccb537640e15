import type { Problem } from '../api-error.js';
import { accountKey } from '../account-reference.js';
import { isCalendarDate } from '../clock.js';
import { executionDateProblem } from '../execution-date.js';
import { type Fees, domesticFees } from '../fee-schedule.js';
import {
  type ExecutionRule,
  FREQUENCIES,
  type Frequency,
  type Schedule,
  isoWeekday,
  nextExecution,
} from '../periodic/schedule.js';
import type { ProductContext, ProductValidation } from './cross-border-payment.js';
import { readDomesticTransfer } from './domestic-transfer.js';
import { arrayAt, stringAt } from './field-reader.js';
import { duplicateKey } from './payment.js';

/**
 * executionRule as sent: Berlin Group's two values, and "preceeding", as the platform's own sample
 * body spells it, read as "preceding" (docs/decisions/0227).
 */
export const EXECUTION_RULES: Readonly<Record<string, ExecutionRule>> = {
  following: 'following',
  preceding: 'preceding',
  preceeding: 'preceding',
};

/** ISO 20022 bank transaction code of a standing order's debit (Berlin Group's bank transaction code for standing orders). */
export const STANDING_ORDER_DEBIT = 'PMNT-ICDT-STDO';

const WEEKLY: ReadonlySet<string> = new Set(['Weekly', 'EveryTwoWeeks']);
/** Berlin Group: "1" to "31", no leading zeroes; months "1" to "12". The schema says the same to the TPP. */
export const DAY_OF_EXECUTION = /^(?:[1-9]|[12][0-9]|3[01])$/;
export const MONTH = /^(?:[1-9]|1[0-2])$/;

/**
 * A periodic norwegian-domestic-credit-transfers payment (a standing order): the fields of a domestic
 * credit transfer (domestic-transfer.ts) and its schedule. The schema checks each field's form; the
 * rules across fields are here:
 * - startDate from today to a year ahead, as requestedExecutionDate; endDate not before it;
 * - monthsOfExecution with MonthlyVariable and only with it (release 1.18.0), each month once (1.18.1);
 * - dayOfExecution a day of the month, a weekday (1 Monday to 7 Sunday) for the weekly frequencies,
 *   none for Daily (docs/decisions/0228);
 * - at least one execution between startDate and endDate.
 * The payment's execution date is its first execution's: the store keeps the next one there.
 */
export function validatePeriodicPayment(body: unknown, context: ProductContext): ProductValidation {
  const problems: Problem[] = [];
  const transfer = readDomesticTransfer(body, problems);
  const schedule = readSchedule(body, context.today, problems);
  const first = schedule === undefined ? undefined : nextExecution(schedule, undefined);
  if (schedule !== undefined && first === undefined) {
    problems.push({
      code: 'FORMAT_ERROR',
      path: '$.endDate',
      text: `no execution of this ${schedule.frequency} schedule falls on a bank day from $.startDate ${schedule.startDate} to $.endDate ${schedule.endDate ?? ''}`,
    });
  }
  if (problems.length > 0 || transfer === undefined || schedule === undefined || first === undefined)
    return { problems, payment: undefined };
  return {
    problems,
    payment: {
      debtor: transfer.debtor,
      requestedExecutionDate: first.date,
      transfers: [
        {
          amount: transfer.amount,
          creditorName: transfer.creditorName,
          creditorAccount: transfer.creditor,
          // An equal order is one of the same schedule: the same transfer as a single payment is not its duplicate.
          duplicateKey: duplicateKey({
            debtor: accountKey(transfer.debtor),
            creditor: `${transfer.creditor}|${scheduleKey(schedule)}`,
            amount: transfer.amount,
            executionDate: schedule.startDate,
            remittance: transfer.remittance,
          }),
          path: '$',
        },
      ],
      fees: periodicExecutionFees(),
      warnings: [],
    },
  };
}

/**
 * The fee of each execution of a standing order: that of a single domestic credit transfer, which
 * is free, as the recorded platform answers (NOK 0.00) and the bank's online banking (docs/fees.md).
 */
export function periodicExecutionFees(): Fees {
  return domesticFees();
}

/** The schedule of a body whose periodic fields have the right form, or undefined with the problems found. */
export function readSchedule(body: unknown, today: string, problems: Problem[]): Schedule | undefined {
  const before = problems.length;
  const startDate = stringAt(body, 'startDate');
  const endDate = stringAt(body, 'endDate');
  const frequency = stringAt(body, 'frequency') as Frequency | undefined;
  const dayText = stringAt(body, 'dayOfExecution');
  const months = arrayAt(body, 'monthsOfExecution');
  const rule = stringAt(body, 'executionRule');
  if (startDate !== undefined && isCalendarDate(startDate)) {
    const problem = executionDateProblem(startDate, today, '$.startDate');
    if (problem !== undefined) problems.push(problem);
    if (endDate !== undefined && isCalendarDate(endDate) && endDate < startDate) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: '$.endDate',
        text: `$.endDate ${endDate} is before $.startDate ${startDate}; it is the last day an execution may fall on`,
      });
    }
  }
  problems.push(...monthsProblems(frequency, months));
  // The schema reports values of the wrong form; the rules across fields read only those of the right one.
  const formed =
    (frequency === undefined || (FREQUENCIES as readonly string[]).includes(frequency)) &&
    (rule === undefined || Object.hasOwn(EXECUTION_RULES, rule)) &&
    (dayText === undefined || DAY_OF_EXECUTION.test(dayText)) &&
    // An empty list names no month to execute in: the schema refuses it (minItems), and no schedule can be read from it.
    (months === undefined || (months.length > 0 && months.every((m) => typeof m === 'string' && MONTH.test(m))));
  const dayProblem =
    frequency === undefined || dayText === undefined || !formed
      ? undefined
      : dayOfExecutionProblem(frequency, Number(dayText));
  if (dayProblem !== undefined) problems.push(dayProblem);
  if (!formed || problems.length > before || startDate === undefined || frequency === undefined) return undefined;
  if (!isCalendarDate(startDate) || (endDate !== undefined && !isCalendarDate(endDate))) return undefined;
  return scheduleOf(body);
}

/**
 * The schedule of a standing order's body as stored (validated when it was created): what the
 * executions are computed from, whatever the date now.
 */
export function scheduleOf(body: unknown): Schedule {
  const startDate = stringAt(body, 'startDate')!;
  const frequency = stringAt(body, 'frequency') as Frequency;
  const dayText = stringAt(body, 'dayOfExecution');
  const months = arrayAt(body, 'monthsOfExecution');
  return {
    startDate,
    endDate: stringAt(body, 'endDate'),
    frequency,
    executionRule: EXECUTION_RULES[stringAt(body, 'executionRule') ?? 'following'] ?? 'following',
    day:
      frequency === 'Daily'
        ? undefined
        : dayText !== undefined
          ? Number(dayText)
          : WEEKLY.has(frequency)
            ? isoWeekday(startDate)
            : Number(startDate.slice(8, 10)),
    months: frequency === 'MonthlyVariable' ? (months ?? []).map(Number).sort((a, b) => a - b) : undefined,
  };
}

/** Release 1.18.0: monthsOfExecution with MonthlyVariable, and only then; release 1.18.1: each month once. */
export function monthsProblems(frequency: string | undefined, months: unknown[] | undefined): Problem[] {
  const path = '$.monthsOfExecution';
  if (frequency === 'MonthlyVariable' && months === undefined)
    return [
      {
        code: 'FORMAT_ERROR',
        path,
        text: `${path} is required with frequency MonthlyVariable: the months it executes in`,
      },
    ];
  if (frequency !== undefined && frequency !== 'MonthlyVariable' && months !== undefined)
    return [
      {
        code: 'FORMAT_ERROR',
        path,
        text: `${path} is given only with frequency MonthlyVariable; ${frequency} executes every period from startDate`,
      },
    ];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const month of months ?? []) {
    if (typeof month !== 'string') continue;
    if (seen.has(month)) repeated.add(month);
    seen.add(month);
  }
  if (repeated.size === 0) return [];
  return [
    {
      code: 'FORMAT_ERROR',
      path,
      text: `${path} names month ${[...repeated].join(', ')} more than once; each month is given once`,
    },
  ];
}

/** dayOfExecution against the frequency: none for Daily, a weekday for the weekly ones, a day of the month otherwise. */
function dayOfExecutionProblem(frequency: string, day: number): Problem | undefined {
  const path = '$.dayOfExecution';
  if (frequency === 'Daily')
    return { code: 'FORMAT_ERROR', path, text: `${path} has no meaning for frequency Daily, which executes every day` };
  if (WEEKLY.has(frequency) && day > 7)
    return {
      code: 'FORMAT_ERROR',
      path,
      text: `${path} '${day}' is no weekday: for ${frequency} it is the day of the week, 1 (Monday) to 7 (Sunday)`,
    };
  return undefined;
}

/** The schedule as text, for logical duplicates. */
function scheduleKey(schedule: Schedule): string {
  return [schedule.frequency, schedule.day ?? '', (schedule.months ?? []).join(','), schedule.endDate ?? ''].join('/');
}
