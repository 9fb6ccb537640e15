import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { osloInstantOf, osloOffsetMs, osloWallClock } from '../../src/domain/oslo-offset.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** ICU's time zone data, which the rule replaces in the server: the reference the rule is held to. */
const icu = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Oslo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const icuWallClock = (ms: number) => icu.format(ms).replace(' ', 'T');
const ruleWallClock = (ms: number) => osloWallClock(ms).toISOString().slice(0, 19);

describe("Norway's offset from UTC (docs/decisions/0354)", () => {
  it('agrees with ICU around 01:00 UTC, when Norway changes its clocks, on every day from 1980 to 2200', () => {
    for (let day = Date.UTC(1980, 0, 1); day < Date.UTC(2201, 0, 1); day += DAY_MS) {
      for (const at of [day + HOUR_MS - 1, day + HOUR_MS]) {
        assert.equal(ruleWallClock(at), icuWallClock(at), new Date(at).toISOString());
      }
    }
  });

  it('agrees with ICU at every hour of a year, in both 1990 (summer ending in September) and 2027', () => {
    for (const year of [1990, 2027]) {
      for (let at = Date.UTC(year, 0, 1); at < Date.UTC(year + 1, 0, 1); at += HOUR_MS) {
        assert.equal(ruleWallClock(at), icuWallClock(at), new Date(at).toISOString());
      }
    }
  });

  it('is one hour in winter and two in summer, changing at 01:00 UTC on the last Sundays of March and October', () => {
    assert.equal(osloOffsetMs(Date.parse('2027-03-28T00:59:59.999Z')), HOUR_MS);
    assert.equal(osloOffsetMs(Date.parse('2027-03-28T01:00:00Z')), 2 * HOUR_MS);
    assert.equal(osloOffsetMs(Date.parse('2026-10-25T00:59:59.999Z')), 2 * HOUR_MS);
    assert.equal(osloOffsetMs(Date.parse('2026-10-25T01:00:00Z')), HOUR_MS);
  });

  it('takes UTC+1 throughout before 1980, when its rule begins', () => {
    assert.equal(osloOffsetMs(Date.parse('1979-07-01T12:00:00Z')), HOUR_MS);
    assert.equal(osloOffsetMs(Date.parse('1970-01-01T00:00:00Z')), HOUR_MS);
  });
});

describe('osloInstantOf', () => {
  it("is the instant Norway's clocks show a time of day, in winter and in summer", () => {
    assert.equal(new Date(osloInstantOf('2026-11-30', 6, 0)).toISOString(), '2026-11-30T05:00:00.000Z');
    assert.equal(new Date(osloInstantOf('2027-07-01', 18, 30)).toISOString(), '2027-07-01T16:30:00.000Z');
    assert.equal(new Date(osloInstantOf('2027-01-01', 0, 0)).toISOString(), '2026-12-31T23:00:00.000Z');
  });

  it('takes the years before 100 as they are, not as 1900-1999', () => {
    assert.equal(new Date(osloInstantOf('0001-01-01', 0, 0)).toISOString(), '0000-12-31T23:00:00.000Z');
    assert.equal(new Date(osloInstantOf('0099-07-01', 12, 0)).toISOString(), '0099-07-01T11:00:00.000Z');
  });

  it('takes a time the spring change skips as the instant of the change', () => {
    // 2027-03-28: the clocks go from 02:00 to 03:00 at 01:00 UTC; 02:30 is never shown.
    assert.equal(new Date(osloInstantOf('2027-03-28', 2, 30)).toISOString(), '2027-03-28T01:00:00.000Z');
    assert.equal(new Date(osloInstantOf('2027-03-28', 3, 0)).toISOString(), '2027-03-28T01:00:00.000Z');
    assert.equal(new Date(osloInstantOf('2027-03-28', 1, 59)).toISOString(), '2027-03-28T00:59:00.000Z');
  });

  it('takes a time the autumn change shows twice as its first', () => {
    // 2026-10-25: the clocks go from 03:00 back to 02:00 at 01:00 UTC; 02:30 is shown at 00:30 and 01:30 UTC.
    assert.equal(new Date(osloInstantOf('2026-10-25', 2, 30)).toISOString(), '2026-10-25T00:30:00.000Z');
    assert.equal(new Date(osloInstantOf('2026-10-25', 3, 0)).toISOString(), '2026-10-25T02:00:00.000Z');
  });

  it('shows, on every day from 1980 to 2200, the time of day it was asked for (00:00, 06:00 and 18:00: no change is at them)', () => {
    for (let day = Date.UTC(1980, 0, 1); day < Date.UTC(2201, 0, 1); day += DAY_MS) {
      const date = new Date(day).toISOString().slice(0, 10);
      for (const [hour, minute] of [
        [0, 0],
        [6, 0],
        [18, 0],
      ] as const) {
        const wall = ruleWallClock(osloInstantOf(date, hour, minute));
        assert.equal(wall, `${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`);
      }
    }
  });
});
