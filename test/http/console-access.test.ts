import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  CONSOLE_LINKS_PER_TPP,
  CONSOLE_LINKS_REMEMBERED,
  CONSOLE_LINK_TTL_MS,
  CONSOLE_SESSION_TTL_MS,
  CONSOLE_TOKEN_MAX_LENGTH,
} from '../../src/domain/limits.js';
import { ConsoleAccess } from '../../src/http/console-pages/console-access.js';

/** The console's links and sessions (src/http/console-pages/console-access.ts), without HTTP. */

class ManualClock {
  at = Date.parse('2026-11-27T10:00:00.000Z');
  now(): Date {
    return new Date(this.at);
  }
}

const key = { bytes: randomBytes(32) };

describe('ConsoleAccess', () => {
  it('a link opens once, for its TPP, and gives a session of eight hours that another installation does not take', () => {
    const clock = new ManualClock();
    const access = new ConsoleAccess(key, clock);
    const { token, expiresAt } = access.link('PSDNO-FSA-123456789');
    assert.equal(expiresAt.getTime(), clock.at + CONSOLE_LINK_TTL_MS);
    const entry = access.enter(token);
    assert.equal(entry.outcome, 'entered');
    if (entry.outcome !== 'entered') return;
    assert.equal(entry.session.tppId, 'PSDNO-FSA-123456789');
    assert.equal(entry.session.expiresAt.getTime(), clock.at + CONSOLE_SESSION_TTL_MS);
    assert.deepEqual(access.enter(token), { outcome: 'used', tppId: 'PSDNO-FSA-123456789' });
    assert.equal(access.sessionOf(entry.cookie)?.tppId, 'PSDNO-FSA-123456789');

    // A link is no session, and a session no link: each is signed under a key of its own.
    assert.equal(access.sessionOf(token), undefined);
    assert.equal(access.enter(entry.cookie).outcome, 'invalid');
    // Another installation's key: nothing it signed is taken.
    const other = new ConsoleAccess({ bytes: randomBytes(32) }, clock);
    assert.equal(other.enter(access.link('PSDNO-FSA-123456789').token).outcome, 'invalid');
    assert.equal(other.sessionOf(entry.cookie), undefined);
    assert.equal(access.enter('x'.repeat(CONSOLE_TOKEN_MAX_LENGTH + 1)).outcome, 'invalid');
  });

  it('another instance of the installation takes a link and a session this one gave', () => {
    const clock = new ManualClock();
    const one = new ConsoleAccess(key, clock);
    const two = new ConsoleAccess(key, clock);
    const entry = two.enter(one.link('PSDNO-FSA-123456789').token);
    assert.equal(entry.outcome, 'entered');
    if (entry.outcome === 'entered') assert.equal(one.sessionOf(entry.cookie)?.tppId, 'PSDNO-FSA-123456789');
  });

  it('expires: a link after five minutes, a session after eight hours', () => {
    const clock = new ManualClock();
    const access = new ConsoleAccess(key, clock);
    const late = access.link('PSDNO-FSA-123456789').token;
    const entry = access.enter(access.link('PSDNO-FSA-123456789').token);
    assert.equal(entry.outcome, 'entered');
    if (entry.outcome !== 'entered') return;
    clock.at += CONSOLE_LINK_TTL_MS;
    assert.equal(access.enter(late).outcome, 'expired');
    assert.ok(access.sessionOf(entry.cookie));
    clock.at += CONSOLE_SESSION_TTL_MS - CONSOLE_LINK_TTL_MS;
    assert.equal(access.sessionOf(entry.cookie), undefined);
  });

  it(`remembers ${CONSOLE_LINKS_REMEMBERED} opened links at most: the next is refused until the oldest expire, none is forgotten early`, () => {
    const clock = new ManualClock();
    const access = new ConsoleAccess(key, clock);
    const first = access.link('PSDNO-FSA-123456789').token;
    assert.equal(access.enter(first).outcome, 'entered');
    // Many TPPs, each under its own limit, together fill what every TPP shares.
    for (let i = 1; i < CONSOLE_LINKS_REMEMBERED; i++)
      assert.equal(access.enter(access.link(`PSDNO-FSA-${100_000_000 + i}`).token).outcome, 'entered');
    const waiting = access.link('PSDNO-FSA-987654321').token;
    assert.equal(access.enter(waiting).outcome, 'busy');
    assert.equal(access.enter(first).outcome, 'used', 'the first is still remembered');
    clock.at += CONSOLE_LINK_TTL_MS - 1;
    const fresh = access.link('PSDNO-FSA-123456789').token;
    clock.at += 1;
    // The remembered links have expired now: they are forgotten, and a link in time opens.
    assert.equal(access.enter(fresh).outcome, 'entered');
    assert.equal(access.enter(waiting).outcome, 'expired');
  });

  // Issue 40, 2: one TPP looping link after link filled the 10 000 and locked every other TPP out (503).
  it(`lets one TPP open ${CONSOLE_LINKS_PER_TPP} links within five minutes: the next of that TPP is too-many, another TPP's still opens`, () => {
    const clock = new ManualClock();
    const access = new ConsoleAccess(key, clock);
    for (let i = 0; i < CONSOLE_LINKS_PER_TPP; i++)
      assert.equal(access.enter(access.link('PSDNO-FSA-123456789').token).outcome, 'entered');
    assert.equal(access.enter(access.link('PSDNO-FSA-123456789').token).outcome, 'too-many');
    assert.equal(access.enter(access.link('PSDNO-FSA-987654321').token).outcome, 'entered');
    clock.at += CONSOLE_LINK_TTL_MS;
    // Its links expired: the TPP opens links again.
    assert.equal(access.enter(access.link('PSDNO-FSA-123456789').token).outcome, 'entered');
  });
});
