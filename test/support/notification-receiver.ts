import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { Store } from '../../src/store/store.js';
import { duplicateKeyOf, newPayment, requestFor } from './new-payment.js';
import { TPP_ID } from './tpp-fixtures.js';

/** One notification as a TPP's endpoint received it. */
export interface ReceivedNotification {
  eventId: string;
  status: string;
  /** The kid of its signature's header: which key, so which instance (each with a data folder of its own), signed it. */
  kid: string;
  body: string;
  answered: number;
}

/**
 * A TPP's notification endpoint on 127.0.0.1 for process tests: it answers `answer` (changed by the
 * test as it goes), after `delayMs` when set (so that tries overlap, as a real endpoint's do), and
 * records each notification, how many were in flight at once for each event id, and the most.
 */
export class NotificationReceiver {
  answer = 204;
  delayMs = 0;
  readonly received: ReceivedNotification[] = [];
  /** The most requests for one event id in flight at once, over the receiver's life. */
  maxInFlightPerEvent = 0;
  /** When set, answers wait until it holds, looked at as each request arrives (so that every sender's first tries are in before any ends). */
  holdUntil: (() => boolean) | undefined;
  /** The kids of every request that arrived, answered or not. */
  readonly arrivedKids = new Set<string>();
  private held: (() => void)[] = [];
  private readonly inFlight = new Map<string, number>();
  private readonly waiters: { check: () => boolean; resolve: () => void }[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const parsed = JSON.parse(body) as { eventId: string; transactionStatus?: string; scaStatus?: string };
        const now = (this.inFlight.get(parsed.eventId) ?? 0) + 1;
        this.inFlight.set(parsed.eventId, now);
        this.maxInFlightPerEvent = Math.max(this.maxInFlightPerEvent, now);
        const [header = ''] = String(request.headers['x-jws-signature'] ?? '').split('.');
        const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString() || '{}') as { kid: string };
        this.arrivedKids.add(kid);
        const answered = this.answer;
        const reply = () => {
          this.inFlight.set(parsed.eventId, this.inFlight.get(parsed.eventId)! - 1);
          this.received.push({
            eventId: parsed.eventId,
            status: parsed.transactionStatus ?? parsed.scaStatus ?? '',
            kid,
            body,
            answered,
          });
          response.writeHead(answered).end();
          for (const waiter of this.waiters.filter((w) => w.check())) {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        };
        const answer = () => {
          if (this.delayMs > 0) setTimeout(reply, this.delayMs);
          else reply();
        };
        if (this.holdUntil !== undefined && !this.holdUntil()) {
          this.held.push(answer);
          return;
        }
        const released = this.held;
        this.held = [];
        released.forEach((a) => a());
        answer();
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks/notifications`;
  }

  /** The event ids answered with a 2xx. */
  delivered(): Set<string> {
    return new Set(this.received.filter((r) => r.answered >= 200 && r.answered < 300).map((r) => r.eventId));
  }

  /** Resolves once `check` holds after a request, or fails after `limitMs` (a bound, not a measure) saying `what`. */
  until(check: () => boolean, what: string, limitMs: number): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(
          this.waiters.findIndex((w) => w.resolve === done),
          1,
        );
        reject(new Error(`the receiver did not see ${what} within ${limitMs} ms (${this.received.length} requests)`));
      }, limitMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ check, resolve: done });
    });
  }

  async stop(): Promise<void> {
    if (this.server === undefined) return;
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}

/**
 * `count` payments of the test TPP, each subscribed (PROCESS) at `uri` as its create would have
 * stored it, written straight to the store, then accepted (ACTC) in one statement: the triggers
 * write one pending notification each.
 */
export async function seedSubscribedPayments(store: Store, count: number, uri: string): Promise<string[]> {
  await store.migrate();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const base = newPayment();
    const payment = newPayment({
      tppId: TPP_ID,
      psuKey: `psu:notify-${i}`,
      transfers: [{ ...base.transfers[0]!, duplicateKey: duplicateKeyOf(`notify-${i}`) }],
    });
    await store.createPayment(
      payment,
      {
        ...requestFor(payment),
        subscription: { resource: { kind: 'payment', id: payment.id }, uri, content: ['PROCESS'] },
      },
      { duplicatesSince: null, bank: TPP_ID },
    );
    ids.push(payment.id);
  }
  await store.decidePayments(
    ids.map((paymentId) => ({ paymentId, status: 'ACTC', reason: undefined })),
    undefined,
    new Date(),
  );
  return ids;
}
