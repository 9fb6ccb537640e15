import assert from 'node:assert/strict';

/** A page of a core's feed of status reports, as the core port and the embedded ledger answer it. */
export interface FeedPage<R> {
  reports: R[];
  cursor: string | undefined;
}

export type ReadFeed<R> = (cursor: string | undefined) => Promise<FeedPage<R>>;

/** How long a test waits for a change to come out of the feed before it fails. */
const FEED_WAIT_MS = 10_000;

/**
 * Reads the feed on from `cursor` until the reports read so far satisfy `done`. On PostgreSQL the
 * feed gives out no change of a transaction newer than the oldest still running on the server
 * (docs/decisions/0348): another test file's transaction, in a run of the suite, holds it back for
 * as long as it runs, so an empty page is a wait, not the end.
 */
export async function readFeedUntil<R>(
  read: ReadFeed<R>,
  cursor: string | undefined,
  done: (reports: R[]) => boolean,
): Promise<FeedPage<R>> {
  const deadline = Date.now() + FEED_WAIT_MS;
  const reports: R[] = [];
  let at = cursor;
  while (!done(reports)) {
    if (Date.now() > deadline)
      assert.fail(`the feed gave out ${reports.length} reports in ${FEED_WAIT_MS} ms, not what was waited for`);
    const page = await read(at);
    reports.push(...page.reports);
    at = page.cursor;
    if (page.reports.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { reports, cursor: at };
}

/** Reads the feed on from `cursor` to its end for now: the first empty page, which must answer the cursor it was given. */
export async function readFeedToEnd<R>(read: ReadFeed<R>, cursor: string | undefined): Promise<string | undefined> {
  let at = cursor;
  for (;;) {
    const page = await read(at);
    if (page.reports.length === 0) {
      assert.equal(page.cursor, at, 'an empty page answers the cursor it was given');
      return at;
    }
    at = page.cursor;
  }
}
