import { type FastifyInstance, type FastifyRequest, errorCodes } from 'fastify';
import { RESOURCE_BODY_LIMIT_BYTES } from '../../domain/limits.js';
import { readLargeJsonBody, readSmallJsonBody } from '../body/read-json-body.js';
import { turn } from '../body/turn.js';

/**
 * JSON bodies are kept as received: the Digest covers the bytes, so they are parsed only after
 * authentication (parse-and-validate.ts), and a client that is not authenticated learns nothing about its body.
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
  app.addHook('preValidation', (request, _reply, done) => {
    if (Buffer.isBuffer(request.body)) {
      request.rawBody = request.body;
      request.body = undefined;
    }
    done();
  });
}

/** A body of a list route: its reading, validation and rules each take milliseconds, and the event loop turns between them. */
export function isLargeBody(request: FastifyRequest): boolean {
  return (request.rawBody?.length ?? 0) > RESOURCE_BODY_LIMIT_BYTES;
}

/** Parses a JSON body that is not large, in one step (the common request: no promise). */
export function parseSmallBody(request: FastifyRequest): void {
  const raw = request.rawBody;
  if (raw === null || raw.length === 0) return;
  request.body = readSmallJsonBody(raw);
}

/**
 * Parses a large JSON body. Each step over a body of a list route (up to 1.5 MiB) takes
 * milliseconds; between them the event loop turns, so a stream of hostile bodies cannot hold every
 * other request for their sum.
 */
export async function parseLargeBody(request: FastifyRequest): Promise<void> {
  await turn();
  request.body = await readLargeJsonBody(request.rawBody!);
  await turn();
}
