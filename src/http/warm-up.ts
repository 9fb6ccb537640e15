import { validateDomesticBulkPayment } from '../domain/payments/domestic-bulk-payment.js';
import { ReferenceRates } from '../domain/reference-rates.js';
import { turn } from './hooks/request-body.js';
import { parseJsonUnits } from './json-pieces.js';
import { JSON_SHAPE_LIMITS, checkJsonShape, jsonLayout } from './json-shape.js';
import { bodyUnits } from './utf8-body.js';
import type { RouteValidator } from './validation.js';

/**
 * Runs the steps a large body goes through (reading its units, the shape pass, parsing in pieces,
 * each list route's validation, the bulk payment's rules) over made-up bodies once the server
 * listens, a few milliseconds at a time between turns of the event loop. A step's first run over
 * 2 MiB is interpreted until the JIT has compiled it, and took 35-60 ms where a compiled run takes
 * 7-25 ms (issue 10, point 3). Before that it makes Node load what every answer needs and Node loads
 * on first use, and touches the young generation's pages. Nothing is stored or answered.
 */
export async function warmUp(validators: readonly RouteValidator[]): Promise<void> {
  // Every answer's payload is checked against the fetch Response class (@fastify/compress's onSend),
  // and the first touch of that global makes Node load its fetch implementation: 18 ms of compiling
  // that the first answer after a start paid (a hostile bulk's, by the README's server, 55 ms).
  void globalThis.Response;
  await turn();
  await touchMemory();
  for (const text of [madeUpBody('x', 200), madeUpBody('ø', 200), madeUpBody('x', 1000)]) {
    for (let i = 0; i < WARM_UP_REPEATS; i++) {
      const units = bodyUnits(Buffer.from(text, 'utf8'));
      const layout = jsonLayout();
      if (units === undefined || checkJsonShape(units, JSON_SHAPE_LIMITS, layout) !== undefined) throw new Error('the warm-up body is not what it should be');
      parseJsonUnits(units, layout);
      await turn();
    }
  }
  for (const validator of validators) await validator.warm();
  await warmBulkRules();
}

/**
 * Runs the bulk payment's rules (domestic-bulk-payment.ts, pure) over made-up bulks whose entries mix
 * valid ones with every kind of wrong value. A hostile bulk is judged by them too, after its schema
 * (the problems of both are answered together), and on the first bulks after a start they ran
 * uncompiled: the second hostile bulk after a start took 30-49 ms, and 11-29 ms with this.
 */
async function warmBulkRules(): Promise<void> {
  const context = { today: '2026-01-01', rates: new ReferenceRates({}) };
  for (let round = 0; round < WARM_UP_REPEATS; round++) {
    const payments = Array.from({ length: WARM_UP_BULK_ENTRIES }, (_, i) => (i % 3 === 0
      ? { instructedAmount: { amount: `${i + 1}.00`, currency: 'NOK' }, creditorAccount: { bban: '12345678903' }, creditorName: 'Kari Nordmann', remittanceInformationUnstructured: `Faktura ${i}` }
      : {
        instructedAmount: WRONG_VALUES[(i + round) % WRONG_VALUES.length], creditorAccount: { bban: WRONG_VALUES[(i + 1) % WRONG_VALUES.length] },
        creditorName: WRONG_VALUES[(i + 2) % WRONG_VALUES.length], remittanceInformationStructured: WRONG_VALUES[(i + 3) % WRONG_VALUES.length],
      }));
    validateDomesticBulkPayment({ debtorAccount: { bban: '12345678903', currency: 'NOK' }, payments }, context);
    await turn();
  }
}

/** Entries of a made-up bulk: enough turns of the rules' loop for the JIT to compile it. */
const WARM_UP_BULK_ENTRIES = 300;
/** Values of every kind a hostile entry sends in place of the right one. */
const WRONG_VALUES: readonly unknown[] = [true, 'x'.repeat(300), '\u00f8'.repeat(300), 1.5, { a: [1] }];

/**
 * Touches both halves of V8's young generation, a piece per turn, with objects that die at once: the
 * young generation does not shrink below its size at start (scripts/start.sh's Node flag), so the
 * first large bodies do not pay the VM's first touch of its pages (about 11 us a page here). With
 * this and the bulk rules' warm-up, the slowest of the first 24 hostile bodies after a start took
 * 42-48 ms in five starts, against 50-79 ms in six without (bench/README.md, "Pages touched afresh").
 * Touching malloc memory as well (16 MiB, kept by the process) did no better and held 16 MB more.
 */
async function touchMemory(): Promise<void> {
  for (let mib = 0; mib < WARM_UP_YOUNG_MIB; mib += 2) {
    // About 2 MiB of objects: the young generation's next pages.
    const garbage: object[] = [];
    for (let i = 0; i < 2 * 1024 * 1024 / 64; i++) garbage.push({ index: i, text: 'x', none: null });
    // Kept where the compiler cannot see it unused, until the next piece replaces it.
    lastGarbage = garbage;
    await turn();
  }
  lastGarbage = undefined;
}

let lastGarbage: unknown;

/** MiB of short-lived objects: twice the young generation's two semi-spaces of 16 MiB, so that every page of both is touched. */
const WARM_UP_YOUNG_MIB = 64;

/** Times each made-up body is read: a loop is compiled once it has turned often enough. */
const WARM_UP_REPEATS = 3;

/** A list body of every kind of token: text of `length` times `letter`, escapes, numbers, literals, nesting. */
function madeUpBody(letter: string, length: number): string {
  const entry = { text: letter.repeat(length), escaped: 'a"b\\c\n\u00e6', amount: '123.45', number: -12.5e3, yes: true, no: false, none: null, list: [1, [2, {}], []], nested: { key: 'value' } };
  return JSON.stringify({ payments: Array.from({ length: 300 }, () => entry) });
}
