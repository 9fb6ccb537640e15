import { JSON_MAX_ARRAY_ENTRIES, JSON_MAX_OBJECT_KEYS } from '../../domain/limits.js';
import { readLargeJsonBody } from '../body/read-json-body.js';
import { turn } from '../body/turn.js';
import type { RouteValidator } from './route-validator.js';

/**
 * Runs the steps a large body goes through (reading its units, the shape pass, parsing in pieces,
 * each list route's validation) over made-up bodies once the server listens, a few milliseconds at a
 * time between turns of the event loop. A step's first run over a large body is interpreted until the
 * JIT has compiled it, several times slower than a compiled run, and the first large body after a
 * start would pay for it (docs/decisions/0101). It first makes Node load
 * what every answer needs and Node loads on first use. Nothing is stored or answered.
 */
export async function warmUp(validators: readonly RouteValidator[]): Promise<void> {
  // Every answer's payload is checked against the fetch Response class (@fastify/compress's onSend),
  // and the first touch of that global makes Node load its fetch implementation: compiling that the
  // first answer after a start would otherwise pay for (bench/history.md, "The first hostile bodies
  // after a start").
  void globalThis.Response;
  await turn();
  for (const text of [madeUpBody('x', 200), madeUpBody('ø', 200), madeUpBody('x', 1000), wideBody()]) {
    // The path of a large body of a list route, slices and turns included: code the JIT compiled for
    // a body read whole is left (deoptimised) at the first slice of a real one.
    for (let i = 0; i < WARM_UP_REPEATS; i++) await readLargeJsonBody(Buffer.from(text, 'utf8'));
  }
  for (const validator of validators) await validator.warm();
}

/** Times each made-up body is read: a loop is compiled once it has turned often enough. */
const WARM_UP_REPEATS = 3;

/** A list body of every kind of token: text of `length` times `letter`, escapes, numbers, literals, nesting. */
function madeUpBody(letter: string, length: number): string {
  const entry = {
    text: letter.repeat(length),
    escaped: 'a"b\\c\n\u00e6',
    amount: '123.45',
    number: -12.5e3,
    yes: true,
    no: false,
    none: null,
    list: [1, [2, {}], []],
    nested: { key: 'value' },
  };
  return JSON.stringify({ payments: Array.from({ length: 300 }, () => entry) });
}

/** Lengths of the wide body's field names: 9 and 11 are those of `__proto__` and `constructor`, which the shape pass compares names at. */
const WIDE_NAME_LENGTHS = [9, 11, 14] as const;

/** A list of the most entries, each of the most fields: the shape of a body of unknown fields. */
function wideBody(): string {
  const entry = Object.fromEntries(
    Array.from({ length: JSON_MAX_OBJECT_KEYS }, (_, k) => [
      `field${k}`.padEnd(WIDE_NAME_LENGTHS[k % WIDE_NAME_LENGTHS.length]!, '_'),
      true,
    ]),
  );
  return JSON.stringify({ payments: Array.from({ length: JSON_MAX_ARRAY_ENTRIES }, () => entry) });
}
