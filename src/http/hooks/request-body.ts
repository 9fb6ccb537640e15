import { type FastifyInstance, type FastifyRequest, errorCodes } from 'fastify';
import { ApiError, type Problem } from '../../domain/api-error.js';
import { RESOURCE_BODY_LIMIT_BYTES, SHAPE_SLICE_CHARS } from '../../domain/limits.js';
import { type JsonUnits, bodyUnits } from '../utf8-body.js';
import { type JsonLayout, JSON_SHAPE_LIMITS, checkJsonShape, jsonLayout, scanJsonShape } from '../json-shape.js';
import { parseJsonUnits } from '../json-pieces.js';

/**
 * JSON bodies are kept as received: the Digest covers the bytes, so they are parsed only after
 * authentication (parseBody), and a client that is not authenticated learns nothing about its body.
 * No body of another media type is read (415): Fastify's own text/plain parser would hand the
 * operation a string it does not keep, answered as a Digest mismatch.
 */
export function keepRawJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // An empty body of another media type is no body: fetch sends `POST` without a body as text/plain.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if ((body as Buffer).length === 0) done(null, undefined);
    else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type'] ?? ''));
  });
  app.addHook('preValidation', async (request) => {
    if (Buffer.isBuffer(request.body)) {
      request.rawBody = request.body;
      request.body = undefined;
    }
  });
}

/** Lets requests waiting behind this one run (a /health probe, a small create) between the steps of reading a large body. */
export const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** A body of a list route: its reading, validation and rules each take milliseconds, and the event loop turns between them. */
export function isLargeBody(request: FastifyRequest): boolean {
  return (request.rawBody?.length ?? 0) > RESOURCE_BODY_LIMIT_BYTES;
}

/** Parses the JSON body; returns whether it is large, so that the steps after it take turns too. */
export async function parseBody(request: FastifyRequest): Promise<boolean> {
  const raw = request.rawBody;
  if (raw === null || raw.length === 0) return false;
  // Each step over a body of a list route (up to 1.5 MiB) takes milliseconds; between them the event
  // loop turns, so a stream of hostile bodies cannot hold every other request for their sum.
  const large = isLargeBody(request);
  if (large) await turn();
  request.body = await readJsonBody(raw, large);
  if (large) await turn();
  return large;
}

/**
 * The body's JSON: its units, the shape pass (a slice at a time when large) and the parse. The
 * warm-up (warm-up.ts) runs large made-up bodies through it, so that the first real large body runs
 * code the JIT has compiled for exactly this path.
 */
export async function readJsonBody(raw: Buffer, large: boolean): Promise<unknown> {
  const units = bodyUnits(raw);
  if (units === undefined) {
    throw new ApiError('FORMAT_ERROR', 'the body is not valid UTF-8', [
      { code: 'FORMAT_ERROR', path: '$', text: 'the body is not valid UTF-8' },
    ]);
  }
  // Depth, lengths, counts and duplicate fields, in one linear pass before any work per element; it
  // notes the seams at which a large body is parsed a piece at a time.
  const layout = jsonLayout();
  const refused = large ? await checkShapeInSlices(units, layout) : checkJsonShape(units, JSON_SHAPE_LIMITS, layout);
  if (refused !== undefined) throw ApiError.of([refused]);
  if (large) await turn();
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
