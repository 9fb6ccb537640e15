import { addDays, utcDay } from '../clock.js';
import { bankDayFrom } from './bank-days.js';

/** Berlin Group's EventFrequency7Code: how often a standing order executes. */
export const FREQUENCIES = [
  'Daily',
  'Weekly',
  'EveryTwoWeeks',
  'Monthly',
  'EveryTwoMonths',
  'Quarterly',
  'SemiAnnual',
  'Annual',
  'MonthlyVariable',
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** Where an execution falling on a day banks do not settle goes: to the next bank day, or the last one before. */
export type ExecutionRule = 'following' | 'preceding';

/** Months between two executions of the frequencies counted in months. */
const MONTHS_APART: Partial<Record<Frequency, number>> = {
  Monthly: 1,
  EveryTwoMonths: 2,
  Quarterly: 3,
  SemiAnnual: 6,
  Annual: 12,
};

/** The schedule of a standing order, as its validated body gives it. */
export interface Schedule {
  startDate: string;
  endDate: string | undefined;
  frequency: Frequency;
  executionRule: ExecutionRule;
  /**
   * The day of the month (1 to 31, 31 the last day) for the monthly frequencies, the ISO weekday (1
   * Monday to 7 Sunday) for Weekly and EveryTwoWeeks; undefined for Daily. Validation fills it from
   * startDate when the body leaves it out.
   */
  day: number | undefined;
  /** The months (1 to 12, ascending, each once) of MonthlyVariable. */
  months: readonly number[] | undefined;
}

/** One execution of the schedule: its place in the series of nominal dates, and the bank day it executes on. */
export interface Execution {
  seq: number;
  date: string;
}

/** How far the search for the next execution looks past nominal dates that fall outside the order's dates. */
const MAX_SKIPPED = 8;

/**
 * The execution after the one numbered `afterSeq` (the first when undefined), or undefined when the
 * schedule has ended. Executions are numbered by their nominal date in the series (the startDate's
 * day or dayOfExecution, every period), so that a month whose day does not exist (the 31st in April,
 * the 29th of February in 2027) is its last day and the next month is again the day asked for.
 * Each nominal date moves to a bank day by the execution rule, and every execution lies between
 * startDate and endDate: one that 'preceding' would move before startDate goes to the following bank
 * day instead, one that 'following' would move past endDate to the preceding one (docs/decisions/0229).
 */
export function nextExecution(schedule: Schedule, afterSeq: number | undefined): Execution | undefined {
  for (let seq = afterSeq === undefined ? 0 : afterSeq + 1, tries = 0; tries < MAX_SKIPPED; seq++, tries++) {
    const nominal = nominalDate(schedule, seq);
    if (schedule.endDate !== undefined && nominal > schedule.endDate) return undefined;
    const date = withinDates(schedule, bankDayFrom(nominal, schedule.executionRule));
    if (date !== undefined) return { seq, date };
  }
  return undefined;
}

/** The executions on or before a date, from the first: the past of a standing order (the sandbox's default one). */
export function executionsUntil(schedule: Schedule, lastDate: string): Execution[] {
  const executions: Execution[] = [];
  for (
    let e = nextExecution(schedule, undefined);
    e !== undefined && e.date <= lastDate;
    e = nextExecution(schedule, e.seq)
  )
    executions.push(e);
  return executions;
}

function withinDates(schedule: Schedule, date: string): string | undefined {
  let day = date;
  if (day < schedule.startDate) day = bankDayFrom(schedule.startDate, 'following');
  if (schedule.endDate !== undefined && day > schedule.endDate) day = bankDayFrom(schedule.endDate, 'preceding');
  return day >= schedule.startDate && (schedule.endDate === undefined || day <= schedule.endDate) ? day : undefined;
}

/** The seq-th nominal date of the series, on or after startDate. */
export function nominalDate(schedule: Schedule, seq: number): string {
  const { startDate, frequency, day } = schedule;
  if (frequency === 'Daily') return addDays(startDate, seq);
  if (frequency === 'Weekly' || frequency === 'EveryTwoWeeks') {
    const weekday = isoWeekday(startDate);
    const first = addDays(startDate, ((day ?? weekday) - weekday + 7) % 7);
    return addDays(first, seq * (frequency === 'Weekly' ? 7 : 14));
  }
  const dayOfMonth = day ?? Number(startDate.slice(8, 10));
  const startMonth = monthIndex(startDate);
  const inMonth = (index: number) => dateInMonth(index, dayOfMonth);
  if (frequency === 'MonthlyVariable') {
    const months = schedule.months ?? [];
    // The first month of the list whose date is on or after startDate, then the list over and over.
    const year = Math.floor(startMonth / 12);
    const candidates = [...months.map((m) => year * 12 + m - 1), ...months.map((m) => (year + 1) * 12 + m - 1)];
    const first = candidates.findIndex((index) => inMonth(index) >= startDate);
    const position = first + seq;
    return inMonth((year + Math.floor(position / months.length)) * 12 + months[position % months.length]! - 1);
  }
  const apart = MONTHS_APART[frequency]!;
  const first = inMonth(startMonth) >= startDate ? startMonth : startMonth + 1;
  return inMonth(first + seq * apart);
}

/** Months since year 0 of a YYYY-MM-DD date. */
function monthIndex(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

/** The day of a month (months since year 0), or the month's last day when it has fewer days. */
function dateInMonth(index: number, day: number): string {
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = utcDay(year, month + 1, 0).getUTCDate();
  const d = Math.min(day, last);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** ISO weekday, 1 Monday to 7 Sunday. */
export function isoWeekday(date: string): number {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}
