import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreClosedError, closingStore } from '../../src/store/closing-store.js';
import type { Store } from '../../src/store/store.js';
import { toApiError } from '../../src/http/error-response.js';
import type { FastifyRequest } from 'fastify';

/** A store whose one call settles when the test says, and whose close is recorded. */
function fakeStore() {
  const events: string[] = [];
  let finish: (() => void) | undefined;
  const store = {
    kind: 'sqlite',
    findPayment: () =>
      new Promise((resolve) => {
        finish = () => {
          events.push('call settled');
          resolve(undefined);
        };
      }),
    readClockOffset: async () => 0n,
    close: async () => {
      events.push('closed');
    },
  } as unknown as Store;
  return { store, events, finish: () => finish?.() };
}

describe('the store at shutdown (closingStore)', () => {
  it('closes only once the calls under way have settled, and refuses calls made after close began', async () => {
    const { store, events, finish } = fakeStore();
    const closing = closingStore(store, 5_000);
    const underWay = closing.findPayment('T', 'p', '');
    const closed = closing.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, [], 'not closed while a call is under way');
    await assert.rejects(closing.readClockOffset('b'), StoreClosedError);
    finish();
    await underWay;
    await closed;
    assert.deepEqual(events, ['call settled', 'closed']);
  });

  it('closes after its wait even when a call never settles', async () => {
    const { store, events } = fakeStore();
    const closing = closingStore(store, 20);
    void closing.findPayment('T', 'p', '');
    await closing.close();
    assert.deepEqual(events, ['closed']);
  });

  it('has a refused call answered 503 SERVICE_UNAVAILABLE, not as a fault', () => {
    const error = toApiError(new StoreClosedError('findPayment'), {} as FastifyRequest);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'SERVICE_UNAVAILABLE');
  });
});
