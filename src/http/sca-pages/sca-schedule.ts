import type { Language } from '../../domain/language.js';
import { type Frequency, type Schedule, nextExecution } from '../../domain/periodic/schedule.js';

/**
 * A standing order's schedule as the SCA page shows it, in the PSU's language: what the PSU approves
 * (or whose end they approve) is a series of payments, not one on one date (docs/sca.md).
 */
export interface ScheduleRow {
  label: string;
  value: string;
  /** A class for the row's value, so the page's parts can be found (tests, the PSU's own tools). */
  name: string;
}

interface ScheduleTexts {
  frequency: string;
  frequencies: Record<Frequency, string>;
  onDay: (day: number) => string;
  onWeekday: (weekday: number) => string;
  inMonths: (months: string) => string;
  monthNames: readonly string[];
  startDate: string;
  endDate: string;
  untilCancelled: string;
  nonBankDay: string;
  following: string;
  preceding: string;
  firstExecution: string;
}

const EN: ScheduleTexts = {
  frequency: 'Repeats',
  frequencies: {
    Daily: 'Every day',
    Weekly: 'Every week',
    EveryTwoWeeks: 'Every two weeks',
    Monthly: 'Every month',
    EveryTwoMonths: 'Every two months',
    Quarterly: 'Every three months',
    SemiAnnual: 'Every six months',
    Annual: 'Every year',
    MonthlyVariable: 'In the months chosen',
  },
  onDay: (day) => (day === 31 ? 'on the last day of the month' : `on day ${day} of the month`),
  onWeekday: (weekday) =>
    `on ${['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'][weekday - 1]}`,
  inMonths: (months) => `(${months})`,
  monthNames: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  startDate: 'Start date',
  endDate: 'End date',
  untilCancelled: 'Until cancelled',
  nonBankDay: 'On a day banks are closed',
  following: 'Paid the next bank day',
  preceding: 'Paid the bank day before',
  firstExecution: 'First payment',
};

const NB: ScheduleTexts = {
  frequency: 'Gjentas',
  frequencies: {
    Daily: 'Hver dag',
    Weekly: 'Hver uke',
    EveryTwoWeeks: 'Annenhver uke',
    Monthly: 'Hver måned',
    EveryTwoMonths: 'Annenhver måned',
    Quarterly: 'Hver tredje måned',
    SemiAnnual: 'Hvert halvår',
    Annual: 'Hvert år',
    MonthlyVariable: 'I de valgte månedene',
  },
  onDay: (day) => (day === 31 ? 'den siste dagen i måneden' : `den ${day}. i måneden`),
  onWeekday: (weekday) =>
    `på ${['mandager', 'tirsdager', 'onsdager', 'torsdager', 'fredager', 'lørdager', 'søndager'][weekday - 1]}`,
  inMonths: (months) => `(${months})`,
  monthNames: ['jan', 'feb', 'mar', 'apr', 'mai', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'des'],
  startDate: 'Startdato',
  endDate: 'Sluttdato',
  untilCancelled: 'Til den sies opp',
  nonBankDay: 'På en dag bankene er stengt',
  following: 'Betales neste virkedag',
  preceding: 'Betales virkedagen før',
  firstExecution: 'Første betaling',
};

const WEEKLY: ReadonlySet<Frequency> = new Set(['Weekly', 'EveryTwoWeeks']);

/**
 * The rows of a standing order's schedule: how often and on which day, start and end, what a day
 * banks are closed does, and (when the PSU approves the order, not its end) the first payment's date.
 */
export function scheduleRows(schedule: Schedule, language: Language, withFirst: boolean): ScheduleRow[] {
  const t = language === 'nb' ? NB : EN;
  const when = [t.frequencies[schedule.frequency]];
  if (schedule.day !== undefined)
    when.push(WEEKLY.has(schedule.frequency) ? t.onWeekday(schedule.day) : t.onDay(schedule.day));
  if (schedule.months !== undefined) when.push(t.inMonths(schedule.months.map((m) => t.monthNames[m - 1]).join(', ')));
  const rows: ScheduleRow[] = [
    { label: t.frequency, value: when.join(' '), name: 'frequency' },
    { label: t.startDate, value: schedule.startDate, name: 'start-date' },
    { label: t.endDate, value: schedule.endDate ?? t.untilCancelled, name: 'end-date' },
    {
      label: t.nonBankDay,
      value: schedule.executionRule === 'following' ? t.following : t.preceding,
      name: 'execution-rule',
    },
  ];
  const first = withFirst ? nextExecution(schedule, undefined) : undefined;
  if (first !== undefined) rows.push({ label: t.firstExecution, value: first.date, name: 'first-execution' });
  return rows;
}
