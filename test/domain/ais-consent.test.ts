import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { historyStart, needsScaForHistory } from '../../src/domain/ais-consent.js';
import { isSessionValid } from '../../src/domain/sca.js';
import { isBeyondUnattendedAllowance, unattendedReadDay } from '../../src/domain/unattended-reads.js';

const DAY_MS = 86_400_000;
const now = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);

describe('account-information consent rules', () => {
  it("holds a consent's SCA for exactly 180 days, then needs a new one (spec, Authentication 10)", () => {
    assert.equal(isSessionValid(ago(180), now), true);
    assert.equal(isSessionValid(new Date(ago(180).getTime() - 1), now), false);
  });

  it('reads the whole history with an SCA at most 90 days old, and from 89 days before today with an older one', () => {
    assert.equal(historyStart(ago(90), now), undefined);
    assert.equal(historyStart(new Date(ago(90).getTime() - 1), now), '2026-08-25');
    assert.equal(needsScaForHistory('2026-08-25', ago(120), now), false);
    assert.equal(needsScaForHistory('2026-08-24', ago(120), now), true);
    assert.equal(needsScaForHistory('1970-01-01', ago(10), now), false);
  });

  it('allows four reads a day without the PSU, counted by the Norwegian date', () => {
    assert.equal(isBeyondUnattendedAllowance(4), false);
    assert.equal(isBeyondUnattendedAllowance(5), true);
    assert.equal(
      unattendedReadDay(new Date('2026-11-22T23:30:00Z')),
      '2026-11-23',
      'half past midnight in Oslo is the next day',
    );
  });
});
