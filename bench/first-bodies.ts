import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { BODY_LIMIT_BYTES } from '../src/domain/limits.js';
import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import { SERVER_BUNDLE, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { accounts, post, prepare, routes, shapes } from './hostile-requests.js';

/** The server's own times of the first large hostile bodies after a start (measureFirstBodies). */
export interface FirstBodies {
  /** Server-timed answers, ms, in the order sent: every shape of the three list routes once. */
  serverMs: number[];
}

/** How many of the first bodies the row shows one by one: those after which the later ones settle. */
const FIRST_SHOWN = 5;

/**
 * The gap issue 10 left (bench/history.md, "Pages touched afresh"): a fresh server, once its warm-up is
 * done, gets every hostile shape of the three list routes once, in order, each the first body of
 * its kind. Its own time for each answer (the `durationMs` of its request log line, from the
 * request's headers to the answer's last byte) is kept.
 */
export async function measureFirstBodies(
  work: string,
  caFile: string,
  credentials: CertificateAndKey,
  port: number,
): Promise<FirstBodies> {
  const dir = mkdtempSync(join(work, 'first-'));
  const timed: number[] = [];
  let warmed: (outcome: string) => void = () => undefined;
  const warmedUp = new Promise<string>((resolve) => {
    warmed = resolve;
  });
  const server = await startBenchServer(
    SERVER_BUNDLE,
    port,
    { ...sqliteSandboxEnv(dir, caFile), LOG_LEVEL: 'info' },
    [],
    '/health',
    [],
    (line) => {
      const entry = JSON.parse(line) as { msg?: string; method?: string; status?: number; durationMs?: number };
      if (entry.msg === 'warmed up' || entry.msg === 'warm-up failed') warmed(entry.msg);
      if (entry.msg === 'request' && entry.method === 'POST' && (entry.status ?? 0) >= 400)
        timed.push(entry.durationMs!);
    },
  );
  try {
    if ((await warmedUp) !== 'warmed up') throw new Error("the server's warm-up failed");
    const { accountId, cardAccountId } = await accounts(server.url, credentials);
    let sent = 0;
    for (const route of routes(accountId, cardAccountId).filter((r) => r.limitBytes === BODY_LIMIT_BYTES)) {
      for (const body of Object.values(shapes(route))) {
        const { status } = await post(server.url, prepare(credentials, route.path, body));
        if (status < 400 || status >= 500) throw new Error(`a hostile body on ${route.name} was answered ${status}`);
        sent += 1;
      }
    }
    // The log lines come through a pipe: wait for the last.
    for (let i = 0; timed.length < sent && i < 200; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    if (timed.length !== sent) throw new Error(`the server logged ${timed.length} of ${sent} hostile answers`);
    return { serverMs: timed };
  } finally {
    await server.stop();
  }
}

/** The bench table's row for measureFirstBodies' runs. */
export function firstBodiesRow(
  runs: FirstBodies[],
  fmt: (values: number[], digits?: number) => string,
): [string, string, string] {
  const over = runs.map((run) => `${run.serverMs.filter((ms) => ms > 50).length} of ${run.serverMs.length}`).join(', ');
  return [
    "Hostile bodies first after a start (each shape of the three list routes once, on a fresh server after its warm-up): the server's ms",
    `first ${FIRST_SHOWN}: ${runs
      .map((run) =>
        run.serverMs
          .slice(0, FIRST_SHOWN)
          .map((ms) => ms.toFixed(0))
          .join(' '),
      )
      .join('; ')}; the slowest ${fmt(
      runs.map((run) => Math.max(...run.serverMs)),
      1,
    )}`,
    `target < 50 (issue 10, point 3); answers over 50 ms: ${over}; later bodies of the same shapes, rows above`,
  ];
}
