import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addDays, isCalendarDate, osloDate, startOfOsloDay } from '../../src/domain/clock.js';

describe('osloDate', () => {
  it('is the next day in Oslo at 23:30 UTC in winter (UTC+1)', () => {
    assert.equal(osloDate(new Date('2026-11-21T23:30:00Z')), '2026-11-22');
    assert.equal(osloDate(new Date('2026-11-21T22:59:59Z')), '2026-11-21');
    assert.equal(osloDate(new Date('2026-11-21T23:00:00Z')), '2026-11-22');
  });

  it('changes date at 22:00 UTC in summer (UTC+2)', () => {
    assert.equal(osloDate(new Date('2026-07-01T21:59:59Z')), '2026-07-01');
    assert.equal(osloDate(new Date('2026-07-01T22:00:00Z')), '2026-07-02');
  });

  it('gives the new year in Oslo before it has begun in UTC', () => {
    assert.equal(osloDate(new Date('2026-12-31T23:00:00Z')), '2027-01-01');
  });

  it('agrees with Intl at every quarter hour of a year, asked in order and out of it (the date is kept per UTC hour)', () => {
    const intl = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Oslo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let at = start; at < start + 366 * 86_400_000; at += 15 * 60_000) {
      for (const instant of [new Date(at), new Date(at + 59 * 60_000 + 59_999), new Date(at - 1)]) {
        assert.equal(osloDate(instant), intl.format(instant), instant.toISOString());
      }
    }
  });

  it('is written YYYY-MM-DD', () => {
    assert.equal(osloDate(new Date('2026-03-05T12:00:00Z')), '2026-03-05');
  });
});

describe('addDays', () => {
  it('adds days within a month', () => {
    assert.equal(addDays('2026-11-21', 1), '2026-11-22');
    assert.equal(addDays('2026-11-21', 0), '2026-11-21');
  });

  it('crosses the end of a month and of a year', () => {
    assert.equal(addDays('2026-01-31', 1), '2026-02-01');
    assert.equal(addDays('2026-04-30', 1), '2026-05-01');
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
    assert.equal(addDays('2026-11-21', 365), '2027-11-21');
  });

  it('has a leap day in leap years only', () => {
    assert.equal(addDays('2028-02-28', 1), '2028-02-29');
    assert.equal(addDays('2028-02-29', 1), '2028-03-01');
    assert.equal(addDays('2027-02-28', 1), '2027-03-01');
    assert.equal(addDays('2100-02-28', 1), '2100-03-01');
    assert.equal(addDays('2000-02-28', 1), '2000-02-29');
  });

  it('keeps the years 0000-0099 as they are, where Date.UTC would read 1900-1999', () => {
    assert.equal(addDays('0001-01-01', 1), '0001-01-02');
    assert.equal(addDays('0099-12-31', 1), '0100-01-01');
    assert.equal(addDays('0000-02-28', 1), '0000-02-29', 'the year 0 is a leap year, as 2000; 1900 is not');
  });

  it('subtracts with a negative number of days', () => {
    assert.equal(addDays('2027-01-01', -1), '2026-12-31');
    assert.equal(addDays('2028-03-01', -1), '2028-02-29');
  });

  it('is not shifted by daylight saving time changes', () => {
    // Europe/Oslo changes to summer time on 2026-03-29 and back on 2026-10-25.
    assert.equal(addDays('2026-03-28', 1), '2026-03-29');
    assert.equal(addDays('2026-03-29', 1), '2026-03-30');
    assert.equal(addDays('2026-10-24', 2), '2026-10-26');
  });
});

describe('isCalendarDate', () => {
  it('accepts YYYY-MM-DD days of the calendar, including a leap day', () => {
    for (const text of ['2026-11-21', '2026-01-31', '2028-02-29', '2000-02-29', '2026-12-31']) {
      assert.equal(isCalendarDate(text), true, text);
    }
  });

  it("accepts the days of the years 0000-0099, which a request's form allows, as days of those years", () => {
    for (const text of ['0000-01-01', '0001-01-01', '0050-06-15', '0099-12-31', '0000-02-29']) {
      assert.equal(isCalendarDate(text), true, text);
    }
    assert.equal(isCalendarDate('0001-02-29'), false, 'the year 1 has no leap day');
  });

  it('refuses days that do not exist', () => {
    for (const text of [
      '2026-02-30',
      '2027-02-29',
      '2100-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
    ]) {
      assert.equal(isCalendarDate(text), false, text);
    }
  });

  it('refuses other formats', () => {
    for (const text of ['2026-1-1', '21.11.2026', '2026-11-21T00:00:00Z', ' 2026-11-21', '20261121', '']) {
      assert.equal(isCalendarDate(text), false, text);
    }
  });
});

describe('startOfOsloDay', () => {
  it('is 23:00 UTC the day before in winter and 22:00 UTC in summer, also on the days the clocks change', () => {
    assert.equal(startOfOsloDay('2026-01-15').toISOString(), '2026-01-14T23:00:00.000Z');
    assert.equal(startOfOsloDay('2026-07-01').toISOString(), '2026-06-30T22:00:00.000Z');
    // Summer time begins at 01:00 UTC on 2026-03-29 and ends at 01:00 UTC on 2026-10-25.
    assert.equal(startOfOsloDay('2026-03-29').toISOString(), '2026-03-28T23:00:00.000Z');
    assert.equal(startOfOsloDay('2026-10-25').toISOString(), '2026-10-24T22:00:00.000Z');
    for (const date of ['2026-03-29', '2026-10-25', '2027-01-01']) {
      assert.equal(osloDate(startOfOsloDay(date)), date);
      assert.notEqual(osloDate(new Date(startOfOsloDay(date).getTime() - 1)), date);
    }
  });
});
