import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_LINKS_PER_TPP } from '../../src/domain/limits.js';
import { consoleLink } from '../support/console-requests.js';
import { ConsoleVisitor } from '../support/console-visitor.js';
import { LogLines } from '../support/log-lines.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Issue 40, 2: one TPP looping POST /v1/sandbox/console-links and opening each link filled the links
 * every TPP shares, and another TPP's fresh link answered 503, logged as a fault. A TPP's capacity is
 * its own now.
 */
describe("the console's capacity is each TPP's own", () => {
  let t: TestApp;
  const log = new LogLines();
  before(async () => {
    t = await startTestApp({ logger: { level: 'info', stream: log.stream } });
  });
  after(() => t.close());

  it(`a TPP past ${CONSOLE_LINKS_PER_TPP} links in five minutes gets 429 with Retry-After, not logged as a fault; another TPP's link opens`, async () => {
    for (let i = 0; i < CONSOLE_LINKS_PER_TPP; i++)
      assert.equal((await new ConsoleVisitor(t.app).open((await consoleLink(t)).href)).statusCode, 303);
    const refused = await new ConsoleVisitor(t.app).open((await consoleLink(t)).href);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '300');
    assert.match(refused.body, /Too many links opened/);
    const other = await new ConsoleVisitor(t.app).open((await consoleLink(t, t.fixtures.otherTpp)).href);
    assert.equal(other.statusCode, 303, "the other TPP's link opens");
    assert.deepEqual(
      log.lines.filter((l) => Number(l.level) >= 50),
      [],
      'nothing logged as a fault',
    );
  });
});
