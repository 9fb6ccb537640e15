import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { BODY_LIMIT_BYTES, PARSE_PIECE_UNITS } from '../../../src/domain/limits.js';
import { parseLargeBody } from '../../../src/http/hooks/request-body.js';
import { parseJsonUnits } from '../../../src/http/body/json-pieces.js';
import { JSON_SHAPE_LIMITS, checkJsonShape, jsonLayout } from '../../../src/http/body/json-shape.js';
import { bodyUnits } from '../../../src/http/body/utf8-body.js';

/** JSON.parse's answer for the text: its value, or the message it throws. */
function parsedWhole(text: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * The shape pass and the parse in pieces of that text, with whether the whole text went to JSON.parse;
 * undefined when the shape pass refuses it.
 */
function parsedInPieces(
  text: string,
  pieceUnits: number,
): { answer: { value?: unknown; error?: string }; whole: boolean; pieces: number } | undefined {
  const units = bodyUnits(Buffer.from(text))!;
  const layout = jsonLayout(pieceUnits);
  if (checkJsonShape(units, JSON_SHAPE_LIMITS, layout) !== undefined) return undefined;
  let answer: { value?: unknown; error?: string } = {};
  const texts = parsedTexts(() => {
    try {
      answer = { value: parseJsonUnits(units, layout) };
    } catch (error) {
      answer = { error: (error as Error).message };
    }
  });
  // A fall back to the whole text comes after the pieces that did not meet.
  return { answer, whole: texts.length >= 2 && texts.at(-1) === text, pieces: texts.length };
}

/** Text given to JSON.parse while `run` runs. */
function parsedTexts(run: () => void): string[] {
  const texts: string[] = [];
  const parse = JSON.parse;
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    texts.push(text);
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    run();
  } finally {
    JSON.parse = parse;
  }
  return texts;
}

describe('parsing a large body in pieces (src/http/body/json-pieces.ts)', () => {
  it('gives what JSON.parse gives the whole text, value or error, for any text and any piece size', () => {
    // Spaces between tokens (indented), non-ASCII text, and texts that are not JSON: cut, a character
    // dropped, or one of the characters that make the seams inserted anywhere.
    const json = fc.oneof(
      fc
        .tuple(fc.jsonValue({ maxDepth: 5 }), fc.integer({ min: 0, max: 3 }))
        .map(([value, indent]) => JSON.stringify(value, null, indent)),
      fc.json({ maxDepth: 5, stringUnit: 'binary' }),
    );
    const text = fc.oneof(
      json,
      json.chain((body) => fc.nat(body.length).map((cut) => body.slice(0, cut))),
      json.chain((body) => fc.nat(body.length).map((at) => body.slice(0, at) + body.slice(at + 1))),
      json.chain((body) =>
        fc
          .tuple(fc.nat(body.length), fc.constantFrom(...'[]{},:" \\x1'))
          .map(([at, c]) => body.slice(0, at) + c + body.slice(at)),
      ),
    );
    let inPieces = 0;
    let wholeTexts = 0;
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 64 }), (generated, piece) => {
        // The text as it arrives: a lone surrogate has no UTF-8 form, and is sent as U+FFFD.
        const body = Buffer.from(generated).toString();
        const pieces = parsedInPieces(body, piece);
        if (pieces === undefined) return;
        const whole = parsedWhole(body);
        assert.deepEqual(pieces.answer, whole);
        // JSON longer than a piece is read in pieces only: the whole text is parsed only when it is not JSON.
        if (whole.error === undefined) assert.equal(pieces.whole, false);
        if (pieces.whole) wholeTexts += 1;
        else if (pieces.pieces >= 2) inPieces += 1;
      }),
      { numRuns: 3000, seed: 20261125 },
    );
    assert.ok(inPieces > 600 && wholeTexts > 100, `${inPieces} read in pieces, ${wholeTexts} whole`);
  });

  it(`gives JSON.parse no string longer than a piece (${PARSE_PIECE_UNITS} characters) of a list body at the size limit`, () => {
    const entry = {
      creditorName: 'ø'.repeat(1000),
      remittance: 'x'.repeat(1000),
      amount: { currency: 'NOK', amount: '12.50' },
      list: [1, [2, {}]],
    };
    const body = JSON.stringify(
      { payments: Array.from({ length: 300 }, () => entry), batchBookingPreferred: true },
      null,
      1,
    );
    assert.ok(Buffer.byteLength(body) > BODY_LIMIT_BYTES / 2);
    const units = bodyUnits(Buffer.from(body))!;
    const layout = jsonLayout();
    assert.equal(checkJsonShape(units, JSON_SHAPE_LIMITS, layout), undefined);
    let value: unknown;
    const texts = parsedTexts(() => {
      value = parseJsonUnits(units, layout);
    });
    assert.deepEqual(value, JSON.parse(body));
    assert.ok(texts.length > 10, `${texts.length} pieces`);
    const longest = Math.max(...texts.map((text) => text.length));
    assert.ok(longest <= PARSE_PIECE_UNITS + 2, `the longest piece has ${longest} characters`);
  });

  it('reads a piece longer than its scratch memory (a field name, spaces and its value) as the whole text reads it', () => {
    for (const letter of ['x', 'ø']) {
      const list = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ name: letter.repeat(1000), i })));
      const body = `{"list":${list},"spaced"${' '.repeat(3 * PARSE_PIECE_UNITS)}:${' '.repeat(PARSE_PIECE_UNITS)}"${letter}","last":1}`;
      const pieces = parsedInPieces(body, PARSE_PIECE_UNITS)!;
      assert.deepEqual(pieces.answer, { value: JSON.parse(body) });
      assert.equal(pieces.whole, false);
    }
  });

  it('reads a small value padded with spaces to a large body without the spaces', () => {
    for (const body of [`${' '.repeat(200_000)}{"a":[1,2]}\n`, `[true]${'\t'.repeat(200_000)}`]) {
      let value: unknown;
      const texts = parsedTexts(() => {
        const units = bodyUnits(Buffer.from(body))!;
        const layout = jsonLayout();
        assert.equal(checkJsonShape(units, JSON_SHAPE_LIMITS, layout), undefined);
        value = parseJsonUnits(units, layout);
      });
      assert.deepEqual(value, JSON.parse(body));
      assert.deepEqual(
        texts.map((text) => text.length),
        [body.trim().length],
      );
    }
  });

  it('names the fault of a large body that is not JSON as JSON.parse of the whole text does', async () => {
    const entries = JSON.stringify(Array.from({ length: 900 }, (_, i) => ({ name: 'x'.repeat(1000), i })));
    const seam = entries.indexOf('},{', 500_000) + 1;
    for (const body of [
      `${entries.slice(0, -1)},]`,
      `${entries.slice(0, seam)}}${entries.slice(seam)}`,
      `${entries} x`,
      `${entries.slice(0, seam)}${entries.slice(seam + 1)}`,
    ]) {
      const request = { rawBody: Buffer.from(body), body: undefined } as unknown as FastifyRequest;
      const refused = await parseLargeBody(request).then(
        () => undefined,
        (error: Error) => error.message,
      );
      assert.equal(refused, `the body is not valid JSON: ${parsedWhole(body).error}`);
    }
  });
});
