import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signRequest } from '../../src/toolkit/request-signer.js';
import { CROSS_BORDER_PATH, type SignedCreate, signedCrossBorderCreate } from '../support/payment-requests.js';
import { ENGINES, freshServerData, startServerProcess } from '../support/server-process.js';
import { tppFixtures } from '../support/tpp-fixtures.js';

/**
 * Durability under load: a server killed (SIGKILL) while creates are in flight loses none it answered
 * 201. A 201 is a promise that the payment and its idempotency record are on disk; requests still
 * unanswered at the kill promised nothing, so they may or may not be there.
 */
/** Creates answered 201 when the kill is sent. */
const KILL_AT = 200;
/** Concurrent create loops, each sending its next create as soon as the last is answered. */
const LOOPS = 8;
/** Signed ahead, so that signing does not slow the load; past KILL_AT enough for every loop to keep sending. */
const SIGNED_AHEAD = KILL_AT + 4 * LOOPS;
/** Acknowledged creates retried (same X-Request-ID and body) on the restarted server. */
const REPLAYS = 6;
const REQUEST_LIMIT_MS = 15_000;

interface Acknowledged {
  request: SignedCreate;
  paymentId: string;
}

describe('durability under load', () => {
  for (const engine of ENGINES) {
    it(
      `keeps every payment answered 201 when killed (SIGKILL) during a create load, on ${engine}`,
      { timeout: 60_000 },
      async (t) => {
        const fixtures = await tppFixtures();
        const data = await freshServerData(engine);
        try {
          const first = await startServerProcess(data.env);
          const signed = Array.from({ length: SIGNED_AHEAD }, () => signedCrossBorderCreate(fixtures.tpp));
          const acknowledged: Acknowledged[] = [];
          let inFlight = 0;
          let inFlightAtKill = 0;
          let killed = false;
          let failure: Error | undefined;

          const kill = () => {
            killed = true;
            inFlightAtKill = inFlight;
            first.child.kill('SIGKILL');
          };
          const load = async () => {
            while (!killed && failure === undefined) {
              const request = signed.shift() ?? signedCrossBorderCreate(fixtures.tpp);
              inFlight++;
              let answer: { status: number; text: string };
              try {
                const response = await fetch(`${first.url}${CROSS_BORDER_PATH}`, {
                  method: 'POST',
                  headers: request.headers,
                  body: request.body,
                  signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
                });
                answer = { status: response.status, text: await response.text() };
              } catch (error) {
                // Lost with the connection: never answered, so nothing was promised.
                if (!killed) failure = new Error(`a create failed before the kill: ${String(error)}`);
                return;
              } finally {
                inFlight--;
              }
              if (answer.status !== 201) {
                failure ??= new Error(`a create was answered ${answer.status}, not 201: ${answer.text}`);
                return;
              }
              acknowledged.push({ request, paymentId: (JSON.parse(answer.text) as { paymentId: string }).paymentId });
              if (acknowledged.length === KILL_AT) kill();
            }
          };
          await Promise.all(Array.from({ length: LOOPS }, load));
          if (failure !== undefined) {
            first.child.kill('SIGKILL');
            throw failure;
          }
          assert.equal((await first.exited).signal, 'SIGKILL');
          assert.ok(inFlightAtKill > 0, 'creates were in flight when the kill was sent');
          assert.ok(acknowledged.length >= KILL_AT, `${acknowledged.length} creates answered 201, at least ${KILL_AT}`);

          const second = await startServerProcess(data.env);
          try {
            const found: string[] = [];
            const missing: string[] = [];
            const queue = [...acknowledged];
            const read = async () => {
              for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
                const url = `${CROSS_BORDER_PATH}/${next.paymentId}/status`;
                const response = await fetch(`${second.url}${url}`, {
                  headers: signRequest({ method: 'GET', url, credentials: fixtures.tpp }),
                  signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
                });
                const text = await response.text();
                if (
                  response.status === 200 &&
                  (JSON.parse(text) as { transactionStatus?: string }).transactionStatus === 'RCVD'
                )
                  found.push(next.paymentId);
                else missing.push(`${next.paymentId} (${response.status})`);
              }
            };
            await Promise.all(Array.from({ length: LOOPS }, read));
            t.diagnostic(
              `${engine}: ${inFlightAtKill} creates in flight and ${KILL_AT} answered 201 when killed, ${acknowledged.length} answered 201 in all, ${found.length} found after the restart`,
            );
            assert.deepEqual(
              missing,
              [],
              `${missing.length} of ${acknowledged.length} payments answered 201 are missing after the restart: ${missing.join(', ')}`,
            );
            assert.equal(found.length, acknowledged.length);

            // The idempotency records survived too: a retry of an acknowledged create gets its payment back,
            // the last answered (written closest to the kill) as well as the first.
            const retried = [...acknowledged.slice(0, REPLAYS / 2), ...acknowledged.slice(-REPLAYS / 2)];
            for (const { request, paymentId } of retried) {
              const retry = signedCrossBorderCreate(fixtures.tpp, request);
              const response = await fetch(`${second.url}${CROSS_BORDER_PATH}`, {
                method: 'POST',
                headers: retry.headers,
                body: retry.body,
                signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
              });
              const text = await response.text();
              assert.equal(response.status, 201, `the retry of X-Request-ID ${request.requestId}: ${text}`);
              assert.equal(
                (JSON.parse(text) as { paymentId: string }).paymentId,
                paymentId,
                `the retry of X-Request-ID ${request.requestId} gets payment ${paymentId} back`,
              );
            }
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
