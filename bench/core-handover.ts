import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCoreKey } from '../src/core/http/core-signature.js';
import { HttpCore } from '../src/core/http/http-core.js';
import { osloDate } from '../src/domain/clock.js';
import { newPaymentId, type NewPayment } from '../src/domain/payments/payment.js';
import { productRules } from '../src/domain/payments/product-rules.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../src/domain/reference-rates.js';
import { NO_FAULTS } from '../src/reference-core/faults.js';
import { startReferenceCore } from '../src/reference-core/reference-core.js';
import { HandoverRelay } from '../src/services/core-handover/handover-relay.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';

/**
 * `node dist/bench/core-handover.js`: issue 38's two rows, the server (SQLite) handing authorised
 * payments to the reference core (SQLite, its own process's code in this one) over HTTP:
 * - payments handed over per second: a backlog of BACKLOG authorised payments, drained by one relay;
 * - the delay from a payment's authorisation to the core's acknowledgement, at STREAM_PER_SECOND
 *   authorised a second for STREAM_SECONDS (median, p99, max).
 */
const BACKLOG = Number(process.env.BENCH_HANDOVER_BACKLOG ?? 5_000);
const STREAM_PER_SECOND = Number(process.env.BENCH_HANDOVER_RATE ?? 200);
const STREAM_SECONDS = Number(process.env.BENCH_HANDOVER_SECONDS ?? 5);
const TPP = 'PSDNO-FSA-123456789';
const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
const rules = productRules('payments', 'norwegian-domestic-credit-transfers')!;

/** An NDCT of Ola's (the reference core's default data set) to an account elsewhere, as the create makes it. */
function ndct(now: Date): NewPayment {
  const body = {
    instructedAmount: { amount: '1.00', currency: 'NOK' },
    creditorName: 'Kreditor AS',
    creditorAccount: { bban: '12345678903', currency: 'NOK' },
    debtorAccount: { bban: '15061012343', currency: 'NOK' },
    remittanceInformationUnstructured: `Bench ${randomUUID().slice(0, 8)}`,
  };
  const validated = rules.validate(body, { today: osloDate(now), rates }).payment!;
  return {
    ...validated,
    id: newPaymentId(),
    tppId: TPP,
    service: 'payments',
    product: 'norwegian-domestic-credit-transfers',
    status: 'RCVD',
    psu: {
      psuId: undefined,
      nationalIdHash: 'x',
      corporateId: undefined,
      context: 'PRIVATE',
      key: `nin:${randomUUID()}`,
    },
    body,
    acceptFixes: [],
    tppRedirectUri: 'https://tpp.example/cb',
    tppSessionId: 'bench',
    createdAt: now,
  };
}

async function authorise(store: Store, count: number): Promise<void> {
  const now = new Date();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const payment = ndct(now);
    await store.createPayment(
      payment,
      {
        tppId: TPP,
        requestId: randomUUID(),
        operation: 'POST /v1/payments/norwegian-domestic-credit-transfers',
        bodySha256: '0'.repeat(64),
        responseStatus: 201,
        responseBody: '{}',
      },
      { duplicatesSince: null, bank: '' },
    );
    ids.push(payment.id);
  }
  await store.decidePayments(
    ids.map((paymentId) => ({ paymentId, status: 'ACTC' as const, reason: undefined })),
    undefined,
    new Date(),
    true,
  );
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

const dir = mkdtempSync(join(tmpdir(), 'bench-handover-'));
const key = parseCoreKey(randomBytes(32).toString('hex'), 'bench');
const reference = await startReferenceCore({
  host: '127.0.0.1',
  port: 0,
  database: { kind: 'sqlite', path: join(dir, 'core.db') },
  key,
  callbackUrl: undefined,
  faults: NO_FAULTS,
});
const store = SqliteStore.open(join(dir, 'psd2.db'));
await store.migrate();
const core = new HttpCore({ url: reference.url, key });
const delays: number[] = [];
let recording = false;
const relay = new HandoverRelay(
  store,
  core,
  'bench',
  { now: () => new Date() },
  () => undefined,
  (ms) => {
    if (recording) delays.push(ms);
  },
);
try {
  await authorise(store, BACKLOG);
  const started = performance.now();
  await relay.drain();
  const seconds = (performance.now() - started) / 1000;
  const pending = await store.countPendingHandovers();
  process.stdout.write(
    `hand-over backlog: ${BACKLOG} payments in ${seconds.toFixed(2)} s = ${Math.round(BACKLOG / seconds)} a second (left pending: ${pending})\n`,
  );

  recording = true;
  const tick = 50;
  const perTick = Math.max(1, Math.round((STREAM_PER_SECOND * tick) / 1000));
  const until = performance.now() + STREAM_SECONDS * 1000;
  while (performance.now() < until) {
    const at = performance.now();
    await authorise(store, perTick);
    relay.nudge();
    const spent = performance.now() - at;
    if (spent < tick) await new Promise((resolve) => setTimeout(resolve, tick - spent));
  }
  await relay.drain();
  const sorted = [...delays].sort((a, b) => a - b);
  process.stdout.write(
    `authorisation to the core's acknowledgement at ${STREAM_PER_SECOND}/s: ${sorted.length} payments, median ${percentile(sorted, 0.5)} ms, p99 ${percentile(sorted, 0.99)} ms, max ${sorted.at(-1)} ms\n`,
  );
} finally {
  await relay.stop();
  await store.close();
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
}
