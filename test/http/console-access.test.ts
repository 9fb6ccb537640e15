import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  CONSOLE_LINKS_PER_TPP,
  CONSOLE_LINKS_REMEMBERED,
  CONSOLE_LINK_TTL_MS,
  CONSOLE_TOKEN_MAX_LENGTH,
} from '../../src/domain/limits.js';
import { ConsoleAccess } from '../../src/http/console-pages/console-access.js';

/**
 * The console's links (src/http/console-pages/console-access.ts), without HTTP. The sessions they
 * open are kept in the database (console-sessions.test.ts).
 */

class ManualClock {
  at = Date.parse('2026-11-27T10:00:00.000Z');
  now(): Date {
    return new Date(this.at);
  }
}

const key = { bytes: randomBytes(32) };
const K = 'a'.repeat(64);

describe('ConsoleAccess', () => {
  it('a link opens once here, names its TPP and the key that asked for it, and another installation does not take it', () => {
    const clock = new ManualClock();
    const access = new ConsoleAccess(key, clock);
    const { token, expiresAt } = access.link('PSDNO-FSA-123456789', K);
    assert.equal(expiresAt.getTime(), clock.at + CONSOLE_LINK_TTL_MS);
    const entry = access.enter(token);
    assert.equal(entry.outcome, 'valid');
    if (entry.outcome !== 'valid') return;
    assert.equal(entry.link.tppId, 'PSDNO-FSA-123456789');
    assert.equal(entry.link.keySha256, K);
    assert.equal(entry.link.expiresAt.getTime(), expiresAt.getTime());
    assert.deepEqual(access.enter(token), { outcome: 'used', tppId: 'PSDNO-FSA-123456789' });

    // Another installation's key: nothing it signed is taken.
    const other = new ConsoleAccess({ bytes: randomBytes(32) }, clock);
    assert.equal(other.enter(access.link('PSDNO-FSA-123456789', K).token).outcome, 'invalid');
    assert.equal(access.enter('x'.repeat(CONSOLE_TOKEN_MAX_LENGTH + 1)).outcome, 'invalid');
  });

  it('another instance of the installation takes a link this one gave', () => {
    const clock = new ManualClock();
    const one = new ConsoleAccess(key, clock);
    const two = new ConsoleAccess(key, clock);
    const entry = two.enter(one.link('PSDNO-FSA-123456789', K).token);
    assert.equal(entry.outcome, 'valid');
  });

  it('expires: a link after five minutes', () => {
    const clock = new ManualClock();
    const access = new ConsoleAccess(key, clock);
    const late = access.link('PSDNO-FSA-123456789', K).token;
    clock.at += CONSOLE_LINK_TTL_MS - 1;
    const fresh = access.link('PSDNO-FSA-123456789', K).token;
    clock.at += 1;
    assert.equal(access.enter(late).outcome, 'expired');
    assert.equal(access.enter(fresh).outcome, 'valid');
  });

  it(`remembers ${CONSOLE_LINKS_REMEMBERED} opened links at most: the next is refused until the oldest expire, none is forgotten early`, () => {
    const clock = new ManualClock();
    const access = new ConsoleAccess(key, clock);
    const first = access.link('PSDNO-FSA-123456789', K).token;
    assert.equal(access.enter(first).outcome, 'valid');
    // Many TPPs, each under its own limit, together fill what every TPP shares.
    for (let i = 1; i < CONSOLE_LINKS_REMEMBERED; i++)
      assert.equal(access.enter(access.link(`PSDNO-FSA-${100_000_000 + i}`, K).token).outcome, 'valid');
    const waiting = access.link('PSDNO-FSA-987654321', K).token;
    assert.equal(access.enter(waiting).outcome, 'busy');
    assert.equal(access.enter(first).outcome, 'used', 'the first is still remembered');
    clock.at += CONSOLE_LINK_TTL_MS - 1;
    const fresh = access.link('PSDNO-FSA-123456789', K).token;
    clock.at += 1;
    // The remembered links have expired now: they are forgotten, and a link in time opens.
    assert.equal(access.enter(fresh).outcome, 'valid');
    assert.equal(access.enter(waiting).outcome, 'expired');
  });

  // Issue 40, 2: one TPP looping link after link filled the 10 000 and locked every other TPP out (503).
  it(`lets one TPP open ${CONSOLE_LINKS_PER_TPP} links within five minutes: the next of that TPP is too-many, another TPP's still opens`, () => {
    const clock = new ManualClock();
    const access = new ConsoleAccess(key, clock);
    for (let i = 0; i < CONSOLE_LINKS_PER_TPP; i++)
      assert.equal(access.enter(access.link('PSDNO-FSA-123456789', K).token).outcome, 'valid');
    assert.equal(access.enter(access.link('PSDNO-FSA-123456789', K).token).outcome, 'too-many');
    assert.equal(access.enter(access.link('PSDNO-FSA-987654321', K).token).outcome, 'valid');
    clock.at += CONSOLE_LINK_TTL_MS;
    // Its links expired: the TPP opens links again.
    assert.equal(access.enter(access.link('PSDNO-FSA-123456789', K).token).outcome, 'valid');
  });
});
