import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signRequest } from '../../src/toolkit/request-signer.js';
import { CROSS_BORDER_PATH, signedCrossBorderCreate } from '../support/payment-requests.js';
import { ENGINES, freshServerData, startServerProcess } from '../support/server-process.js';
import { tppFixtures } from '../support/tpp-fixtures.js';

/** Creates answered 201 when SIGTERM is sent. */
const STOP_AT = 60;
/** Concurrent create loops, each sending its next create as soon as the last is answered. */
const LOOPS = 16;
const REQUEST_LIMIT_MS = 15_000;

/**
 * A graceful stop (README: "requests in flight finish, then the database closes"): requests the
 * server is working on when SIGTERM comes are answered as they would have been, none with a fault
 * because the database closed under them, and every create answered 201 is there after a restart.
 */
describe('graceful shutdown', () => {
  for (const engine of ENGINES) {
    it(
      `finishes the requests in flight at SIGTERM before it closes the database: no 500, every create answered 201 kept, on ${engine}`,
      { timeout: 60_000 },
      async (t) => {
        const fixtures = await tppFixtures();
        const data = await freshServerData(engine);
        try {
          const first = await startServerProcess(data.env);
          const signed = Array.from({ length: STOP_AT + 2 * LOOPS }, () => signedCrossBorderCreate(fixtures.tpp));
          const created: string[] = [];
          const statuses: number[] = [];
          let stopping = false;
          let inFlightAtStop = 0;
          let inFlight = 0;
          const load = async () => {
            for (let request = signed.shift(); request !== undefined && !stopping; request = signed.shift()) {
              inFlight++;
              try {
                const response = await fetch(`${first.url}${CROSS_BORDER_PATH}`, {
                  method: 'POST',
                  headers: request.headers,
                  body: request.body,
                  signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
                });
                const text = await response.text();
                statuses.push(response.status);
                if (response.status === 201) created.push((JSON.parse(text) as { paymentId: string }).paymentId);
              } catch {
                // No connection once the server stopped listening: never sent, nothing promised.
              } finally {
                inFlight--;
              }
              if (created.length >= STOP_AT && !stopping) {
                stopping = true;
                inFlightAtStop = inFlight;
                first.child.kill('SIGTERM');
              }
            }
          };
          await Promise.all(Array.from({ length: LOOPS }, load));
          assert.equal((await first.exited).code, 0);
          assert.ok(inFlightAtStop > 0, 'creates were in flight when SIGTERM was sent');
          const faults = first.lines.filter((l) => l.msg === 'unexpected fault');
          assert.deepEqual(
            statuses.filter((s) => s !== 201 && s !== 503),
            [],
            `answers other than 201 and 503: ${JSON.stringify(faults.slice(0, 2))}`,
          );
          assert.equal(faults.length, 0);

          const second = await startServerProcess(data.env);
          try {
            for (const paymentId of created) {
              const url = `${CROSS_BORDER_PATH}/${paymentId}/status`;
              const response = await fetch(`${second.url}${url}`, {
                headers: signRequest({ method: 'GET', url, credentials: fixtures.tpp }),
              });
              assert.equal(
                response.status,
                200,
                `payment ${paymentId}, answered 201 before the stop, after the restart: ${await response.text()}`,
              );
            }
            t.diagnostic(
              `${engine}: ${inFlightAtStop} creates in flight at SIGTERM, ${created.length} answered 201 in all and found after the restart, ${statuses.filter((s) => s === 503).length} answered 503`,
            );
          } finally {
            second.child.kill('SIGTERM');
            await second.exited;
          }
        } finally {
          await data.remove();
        }
      },
    );
  }
});
