import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bankDayFrom, bankHolidays, easterSunday, isBankDay } from '../../src/domain/periodic/bank-days.js';

describe('Norwegian bank days', () => {
  it('computes Easter Sunday of known years, the earliest and latest possible dates included', () => {
    const known: Record<number, string> = {
      1818: '1818-03-22',
      1943: '1943-04-25',
      2000: '2000-04-23',
      2008: '2008-03-23',
      2019: '2019-04-21',
      2024: '2024-03-31',
      2025: '2025-04-20',
      2026: '2026-04-05',
      2027: '2027-03-28',
      2038: '2038-04-25',
      2285: '2285-03-22',
    };
    for (const [year, date] of Object.entries(known)) assert.equal(easterSunday(Number(year)), date, year);
  });

  it("holds the fourteen days of 2026 banks do not settle on besides weekends: the public holidays, 1 and 17 May, Christmas Eve and New Year's Eve", () => {
    assert.deepEqual([...bankHolidays(2026)].sort(), [
      '2026-01-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-05',
      '2026-04-06',
      '2026-05-01',
      '2026-05-14',
      '2026-05-17',
      '2026-05-24',
      '2026-05-25',
      '2026-12-24',
      '2026-12-25',
      '2026-12-26',
      '2026-12-31',
    ]);
  });

  it('is a bank day on a weekday that is no holiday, and not on Saturdays, Sundays or holidays', () => {
    assert.equal(isBankDay('2026-11-26'), true, 'a Thursday');
    assert.equal(isBankDay('2026-11-28'), false, 'a Saturday');
    assert.equal(isBankDay('2026-11-29'), false, 'a Sunday');
    assert.equal(isBankDay('2026-05-14'), false, 'Ascension Day');
    assert.equal(isBankDay('2027-03-26'), false, 'Good Friday 2027');
  });

  it('moves a closed day to the following or preceding bank day, across Easter and Christmas', () => {
    assert.equal(
      bankDayFrom('2026-04-02', 'following'),
      '2026-04-07',
      'Maundy Thursday to the Tuesday after Easter Monday',
    );
    assert.equal(bankDayFrom('2026-04-02', 'preceding'), '2026-04-01');
    assert.equal(bankDayFrom('2026-12-24', 'following'), '2026-12-28');
    assert.equal(bankDayFrom('2026-12-24', 'preceding'), '2026-12-23');
    assert.equal(bankDayFrom('2026-11-26', 'preceding'), '2026-11-26', 'a bank day stays');
  });
});
