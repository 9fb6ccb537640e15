import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Schedule, executionsUntil, nextExecution } from '../../src/domain/periodic/schedule.js';

function schedule(fields: Partial<Schedule>): Schedule {
  return {
    startDate: '2026-12-01',
    endDate: undefined,
    frequency: 'Monthly',
    executionRule: 'following',
    day: undefined,
    months: undefined,
    ...fields,
  };
}

/** The first `count` execution dates. */
function dates(s: Schedule, count: number): string[] {
  const result: string[] = [];
  for (let e = nextExecution(s, undefined); e !== undefined && result.length < count; e = nextExecution(s, e.seq))
    result.push(e.date);
  return result;
}

describe('standing order schedule', () => {
  it('executes day 31 on the last day of shorter months, and moves it off weekends by the rule', () => {
    const s = schedule({ startDate: '2027-01-01', day: 31 });
    // 31 Jan 2027 and 28 Feb 2027 are Sundays; 31 Mar a Wednesday; April has 30 days.
    assert.deepEqual(dates(s, 4), ['2027-02-01', '2027-03-01', '2027-03-31', '2027-04-30']);
    assert.deepEqual(dates({ ...s, executionRule: 'preceding' }, 4), [
      '2027-01-29',
      '2027-02-26',
      '2027-03-31',
      '2027-04-30',
    ]);
  });

  it('executes the 29th of February in a leap year and the 28th in other years, and the 29th again after', () => {
    const annual = schedule({ startDate: '2028-02-29', frequency: 'Annual' });
    // 29 Feb 2032 is a Sunday: the Monday after.
    assert.deepEqual(dates(annual, 5), ['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-03-01']);
    const monthly = schedule({ startDate: '2027-01-01', day: 29, executionRule: 'preceding' });
    // 29 Jan 2027 Friday; February 2027 has 28 days (a Sunday: the Friday before); 29 March is Easter Monday.
    assert.deepEqual(dates(monthly, 3), ['2027-01-29', '2027-02-26', '2027-03-24']);
  });

  it('moves executions off Norwegian bank holidays: 17 May, Ascension Day, Christmas', () => {
    const may = schedule({ startDate: '2026-05-01', day: 17 });
    assert.equal(dates(may, 1)[0], '2026-05-18', '17 May 2026 is a Sunday and a holiday');
    assert.equal(dates({ ...may, executionRule: 'preceding' }, 1)[0], '2026-05-15', 'the Friday, past Ascension Day');
    assert.equal(dates(schedule({ startDate: '2026-12-01', day: 24 }), 1)[0], '2026-12-28');
  });

  it('executes MonthlyVariable in the months listed, year after year, from startDate', () => {
    const s = schedule({ startDate: '2026-12-01', frequency: 'MonthlyVariable', day: 15, months: [1, 4, 10] });
    assert.deepEqual(dates(s, 4), ['2027-01-15', '2027-04-15', '2027-10-15', '2028-01-17']);
  });

  it('executes Weekly on the weekday dayOfExecution names, across Christmas and New Year', () => {
    const s = schedule({ startDate: '2026-12-01', frequency: 'Weekly', day: 5 });
    assert.deepEqual(dates(s, 6), ['2026-12-04', '2026-12-11', '2026-12-18', '2026-12-28', '2027-01-04', '2027-01-08']);
    const fortnightly = schedule({ startDate: '2026-12-01', frequency: 'EveryTwoWeeks', day: 2 });
    assert.deepEqual(dates(fortnightly, 3), ['2026-12-01', '2026-12-15', '2026-12-29']);
  });

  it('executes Daily once for every day, on the next bank day for days banks are closed', () => {
    const s = schedule({ startDate: '2026-12-05', frequency: 'Daily' });
    assert.deepEqual(dates(s, 4), ['2026-12-07', '2026-12-07', '2026-12-07', '2026-12-08']);
  });

  it('starts at the first execution day on or after startDate, and executes nothing after endDate', () => {
    const s = schedule({ startDate: '2026-12-20', day: 15, endDate: '2027-03-15' });
    assert.deepEqual(dates(s, 10), ['2027-01-15', '2027-02-15', '2027-03-15']);
    assert.equal(nextExecution(s, 2), undefined);
  });

  it('keeps every execution between startDate and endDate: preceding does not go before the start, following not past the end', () => {
    // Saturday 12 Dec 2026: the Friday before is before startDate, so the Monday after.
    assert.deepEqual(dates(schedule({ startDate: '2026-12-12', day: 12, executionRule: 'preceding' }), 1), [
      '2026-12-14',
    ]);
    // Sunday 31 Jan 2027 as endDate: the Monday after is past it, so the Friday before.
    assert.deepEqual(dates(schedule({ startDate: '2027-01-01', day: 31, endDate: '2027-01-31' }), 3), ['2027-01-29']);
  });

  it('lists the executions up to a date', () => {
    const s = schedule({ startDate: '2026-12-01', day: 15 });
    assert.deepEqual(
      executionsUntil(s, '2027-02-15').map((e) => [e.seq, e.date]),
      [
        [0, '2026-12-15'],
        [1, '2027-01-15'],
        [2, '2027-02-15'],
      ],
    );
  });
});
