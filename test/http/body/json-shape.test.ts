import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { BODY_LIMIT_BYTES, RESOURCE_BODY_LIMIT_BYTES, SHAPE_SLICE_CHARS } from '../../../src/domain/limits.js';
import { parseLargeBody } from '../../../src/http/hooks/request-body.js';
import {
  type JsonLayout,
  type JsonShapeLimits,
  JSON_SHAPE_LIMITS,
  checkJsonShape,
  jsonLayout,
  scanJsonShape,
} from '../../../src/http/body/json-shape.js';
import { type JsonUnits, bodyUnits } from '../../../src/http/body/utf8-body.js';

function unitsOf(text: string): JsonUnits {
  return bodyUnits(Buffer.from(text))!;
}

/** Runs the sliced check to its end; returns its answer and how many times it paused. */
function scanned(
  text: string,
  limits: JsonShapeLimits,
  sliceChars: number,
  layout?: JsonLayout,
): { answer: ReturnType<typeof checkJsonShape>; pauses: number } {
  const scan = scanJsonShape(unitsOf(text), limits, sliceChars, layout);
  let pauses = 0;
  for (;;) {
    const step = scan.next();
    if (step.done === true) return { answer: step.value, pauses };
    pauses += 1;
  }
}

const smallLimits: JsonShapeLimits = {
  maxDepth: 4,
  maxArrayEntries: 5,
  maxObjectKeys: 4,
  maxStringLength: 12,
  maxNumberLength: 6,
  maxValues: 40,
};

describe('the shape check in slices (src/http/body/json-shape.ts)', () => {
  it('gives the answer of the check in one pass for any text and any slice, a limit crossed or not', () => {
    // Small limits, so that many generated bodies cross one, at any point of the text; texts that
    // are not JSON (a cut body, a duplicate field spliced in) too.
    const text = fc.oneof(
      fc.json({ maxDepth: 6 }),
      fc.json({ maxDepth: 6, stringUnit: 'binary' }),
      fc.json({ maxDepth: 6 }).chain((json) => fc.nat(json.length).map((cut) => json.slice(0, cut))),
      fc
        .tuple(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 6 }))
        .map(([json, key]) => `{${JSON.stringify(key)}:${json},${JSON.stringify(key)}:1}`),
    );
    // The seams it notes for the parser (json-pieces.ts) are the same too, whatever the slice.
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 16 }), (body, slice, piece) => {
        for (const limits of [smallLimits, JSON_SHAPE_LIMITS]) {
          const inSlices = jsonLayout(piece);
          const inOnePass = jsonLayout(piece);
          assert.deepEqual(
            scanned(body, limits, slice, inSlices).answer,
            checkJsonShape(unitsOf(body), limits, inOnePass),
          );
          assert.deepEqual(inSlices, inOnePass);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('counts the characters of any string, short or long, escaped or not, as the parsed text has them', () => {
    const character = fc.constantFrom('x', 'ø', '"', '\\', '\n', '\u0001', '😀', '/');
    const text = fc.array(character, { maxLength: 700, size: 'max' }).map((characters) => characters.join(''));
    // The limit just under, at or just over the string's length: an answer off by one is caught.
    fc.assert(
      fc.property(text, fc.integer({ min: -1, max: 1 }), fc.boolean(), (value, off, asName) => {
        const limit = Math.max(1, value.length + off);
        const body = asName ? JSON.stringify({ [value]: 1 }) : JSON.stringify({ a: [value] });
        const answer = checkJsonShape(unitsOf(body), { ...JSON_SHAPE_LIMITS, maxStringLength: limit });
        assert.equal(
          answer !== undefined,
          value.length > limit,
          `${value.length} characters, limit ${limit}: ${answer?.text}`,
        );
      }),
      { numRuns: 1500, seed: 20261125 },
    );
  });

  it('pauses after every slice of a large body and still finds a limit crossed at its very end', () => {
    const entries = Array.from({ length: 900 }, (_, i) => ({ name: 'x'.repeat(1000), i }));
    const body = JSON.stringify({ list: entries, last: 'y'.repeat(JSON_SHAPE_LIMITS.maxStringLength + 1) });
    const { answer, pauses } = scanned(body, JSON_SHAPE_LIMITS, SHAPE_SLICE_CHARS);
    assert.ok(
      pauses >= Math.floor(body.length / SHAPE_SLICE_CHARS) - 1,
      `${pauses} pauses over ${body.length} characters`,
    );
    assert.equal(answer?.path, '$.last');
    assert.deepEqual(answer, checkJsonShape(unitsOf(body)));
  });

  it('lets the event loop turn between the slices of a list body, and reads it whole', async () => {
    const entries = Array.from({ length: 700 }, (_, i) => ({ name: 'x'.repeat(1000), note: 'z'.repeat(1000), i }));
    const raw = Buffer.from(JSON.stringify({ list: entries }));
    assert.ok(raw.length > RESOURCE_BODY_LIMIT_BYTES && raw.length <= BODY_LIMIT_BYTES);
    // Another request's turns, counted while this body is read: each slice is one step of the event loop.
    let turns = 0;
    let reading = true;
    const other = (): void => {
      turns += 1;
      if (reading) setImmediate(other);
    };
    setImmediate(other);
    const request = { rawBody: raw, body: undefined } as unknown as FastifyRequest;
    await parseLargeBody(request);
    reading = false;
    assert.equal((request.body as { list: unknown[] }).list.length, 700);
    // A turn before each slice of the shape check, then one after it and one after parsing.
    const slices = Math.ceil(raw.length / SHAPE_SLICE_CHARS);
    assert.ok(
      turns >= slices + 1,
      `${turns} turns of other work while ${raw.length} bytes (${slices} slices) were read`,
    );
  });
});
