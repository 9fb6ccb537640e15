import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { ApiError, type Problem } from '../../domain/api-error.js';
import { DEFAULT_LANGUAGE, type Language } from '../../domain/language.js';

/** What the API can produce; the order is the server's preference when the client has none. */
export const CONTENT_TYPES = ['application/json'];
export const CHARSETS = ['utf-8'];
export const ENCODINGS = ['gzip', 'br', 'deflate', 'identity'];
/** Norwegian in any of its tags (no, nb, nn) is answered in Bokmål; English is the default. */
const LANGUAGE_TAGS = ['en', 'nb', 'no', 'nn'];

/**
 * Content negotiation of API operations (onRequest). The client's Accept, Accept-Charset and
 * Accept-Encoding must leave something the server can produce, or the answer is 406; the language
 * falls back to English, since a message in English serves better than none. The headers are read
 * with negotiator, the parser under the `accepts` package, without its file-extension look-up (mime
 * types and their database, which the server never needs: it offers full media types).
 */
export function negotiate(request: FastifyRequest): void {
  const { headers } = request;
  // A header that is absent accepts anything: most API clients send none, and skip the parsing.
  if (
    headers.accept === undefined &&
    headers['accept-charset'] === undefined &&
    headers['accept-encoding'] === undefined &&
    headers['accept-language'] === undefined
  ) {
    request.locale = DEFAULT_LANGUAGE;
    return;
  }
  const accepts = new Negotiator(request.raw);
  const problems: Problem[] = [];
  if (accepts.mediaType(CONTENT_TYPES) === undefined) {
    problems.push({
      code: 'REQUESTED_FORMATS_INVALID',
      path: 'header:Accept',
      text: `Accept '${request.headers.accept}' does not allow application/json, the only format this API produces`,
    });
  }
  if (accepts.charset(CHARSETS) === undefined) {
    problems.push({
      code: 'REQUESTED_FORMATS_INVALID',
      path: 'header:Accept-Charset',
      text: `Accept-Charset '${request.headers['accept-charset']}' does not allow UTF-8, the only charset this API produces`,
    });
  }
  if (accepts.encoding(ENCODINGS) === undefined) {
    problems.push({
      code: 'REQUESTED_FORMATS_INVALID',
      path: 'header:Accept-Encoding',
      text: `Accept-Encoding '${request.headers['accept-encoding']}' allows none of ${ENCODINGS.join(', ')}`,
    });
  }
  request.locale = languageOf(request);
  if (problems.length > 0) throw ApiError.of(problems);
}

export function languageOf(request: FastifyRequest): Language {
  if (request.headers['accept-language'] === undefined) return DEFAULT_LANGUAGE;
  const tag = new Negotiator(request.raw).language(LANGUAGE_TAGS);
  return tag === undefined || tag === 'en' ? DEFAULT_LANGUAGE : 'nb';
}

/** Reports the language chosen for the answer's human-readable texts (onSend). */
export function reportLanguage(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('Content-Language', request.locale === 'nb' ? 'nb' : 'en');
}
