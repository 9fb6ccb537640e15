import { turn } from './hooks/request-body.js';
import { checkJsonShape } from './json-shape.js';
import { decodeUtf8 } from './utf8-body.js';
import type { RouteValidator } from './validation.js';

/**
 * Runs the steps a large body goes through (decoding, the shape pass, parsing, each list route's
 * validation) over made-up bodies once the server listens, a few milliseconds at a time between turns
 * of the event loop. A step's first run over 2 MiB is interpreted until the JIT has compiled it, and
 * took 35-60 ms where a compiled run takes 7-25 ms: the first large body after a start is then
 * answered as fast as the later ones (issue 10, point 3). Nothing is stored or answered.
 */
export async function warmUp(validators: readonly RouteValidator[]): Promise<void> {
  for (const text of [madeUpBody('x'), madeUpBody('ø')]) {
    for (let i = 0; i < WARM_UP_REPEATS; i++) {
      const decoded = decodeUtf8(Buffer.from(text, 'utf8'));
      if (decoded === undefined || checkJsonShape(decoded) !== undefined) throw new Error('the warm-up body is not what it should be');
      JSON.parse(decoded);
      await turn();
    }
  }
  for (const validator of validators) await validator.warm();
}

/** Times each made-up body is read: a loop is compiled once it has turned often enough. */
const WARM_UP_REPEATS = 3;

/** A list body of every kind of token: long text of `letter`, escapes, numbers, literals, nesting. */
function madeUpBody(letter: string): string {
  const entry = { text: letter.repeat(200), escaped: 'a"b\\c\n\u00e6', amount: '123.45', number: -12.5e3, yes: true, no: false, none: null, list: [1, [2, {}], []], nested: { key: 'value' } };
  return JSON.stringify({ payments: Array.from({ length: 300 }, () => entry) });
}
