import { ApiError, type Problem } from '../../domain/api-error.js';
import { SHAPE_SLICE_CHARS } from '../../domain/limits.js';
import { parseJsonUnits } from './json-pieces.js';
import { type JsonLayout, JSON_SHAPE_LIMITS, checkJsonShape, jsonLayout, scanJsonShape } from './json-shape.js';
import { turn } from './turn.js';
import { refuseLoneSurrogates } from './lone-surrogates.js';
import { type JsonUnits, bodyUnits } from './utf8-body.js';

/**
 * A large body's JSON: its units, the shape pass a slice at a time, and the parse. The warm-up
 * (schema-compiler/warm-up.ts) runs large made-up bodies through it, so that the first real large body
 * runs code the JIT has compiled for exactly this path. A body that is not large is read at once
 * (readSmallJsonBody): its steps take microseconds, and a promise would cost more than they do.
 */
export async function readLargeJsonBody(raw: Buffer): Promise<unknown> {
  const units = unitsOf(raw);
  const layout = jsonLayout();
  const refused = await checkShapeInSlices(units, layout);
  if (refused !== undefined) throw ApiError.of([refused]);
  await turn();
  const value = parsed(units, layout);
  // The search of its escapes grows with the body: a step of its own (docs/decisions/0357).
  await turn();
  refuseLoneSurrogates(raw, value, true);
  return value;
}

/** The JSON of a body that is not large, read in one step. */
export function readSmallJsonBody(raw: Buffer): unknown {
  const units = unitsOf(raw);
  // Depth, lengths, counts and duplicate fields, in one linear pass before any work per element; it
  // notes the seams at which a large body is parsed a piece at a time.
  const layout = jsonLayout();
  const refused = checkJsonShape(units, JSON_SHAPE_LIMITS, layout);
  if (refused !== undefined) throw ApiError.of([refused]);
  const value = parsed(units, layout);
  refuseLoneSurrogates(raw, value, false);
  return value;
}

function unitsOf(raw: Buffer): JsonUnits {
  const units = bodyUnits(raw);
  if (units === undefined)
    throw new ApiError('FORMAT_ERROR', 'the body is not valid UTF-8', [
      { code: 'FORMAT_ERROR', path: '$', text: 'the body is not valid UTF-8' },
    ]);
  return units;
}

function parsed(units: JsonUnits, layout: JsonLayout): unknown {
  try {
    // Prototype-polluting field names were refused by the shape pass.
    return parseJsonUnits(units, layout);
  } catch (error) {
    throw new ApiError('FORMAT_ERROR', `the body is not valid JSON: ${(error as Error).message}`, [
      { code: 'FORMAT_ERROR', path: '$', text: `the body is not valid JSON: ${(error as Error).message}` },
    ]);
  }
}

/** The shape check of a large body, a slice at a time with a turn of the event loop before each. */
async function checkShapeInSlices(units: JsonUnits, layout: JsonLayout): Promise<Problem | undefined> {
  const scan = scanJsonShape(units, JSON_SHAPE_LIMITS, SHAPE_SLICE_CHARS, layout);
  for (;;) {
    await turn();
    const step = scan.next();
    if (step.done === true) return step.value;
  }
}
