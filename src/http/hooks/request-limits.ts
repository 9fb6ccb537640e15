import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import {
  HEADER_VALUE_MAX_LENGTH,
  HEADERS_MAX_COUNT,
  QUERY_MAX_LENGTH,
  QUERY_MAX_PARAMETERS,
} from '../../domain/limits.js';

/**
 * Headers and query string within their limits, checked first on every request, before any hook
 * reads a header or validation looks at a parameter. Node itself bounds all headers together
 * (HEADERS_MAX_BYTES), which also bounds the request line and so the query string find-my-way has
 * split off; this check is one pass over what was received.
 */
export function checkRequestLimits(request: FastifyRequest): void {
  const raw = request.raw.rawHeaders;
  if (raw.length / 2 > HEADERS_MAX_COUNT) {
    throw new ApiError(
      'HEADERS_TOO_LARGE',
      `the request has ${raw.length / 2} headers; at most ${HEADERS_MAX_COUNT} are accepted`,
    );
  }
  for (let i = 1; i < raw.length; i += 2) {
    const value = raw[i]!;
    if (value.length > HEADER_VALUE_MAX_LENGTH) {
      const text = `header ${raw[i - 1]} is ${value.length} characters long; at most ${HEADER_VALUE_MAX_LENGTH} are accepted`;
      throw new ApiError('FORMAT_ERROR', text, [{ code: 'FORMAT_ERROR', path: `header:${raw[i - 1]}`, text }]);
    }
  }
  const url = request.raw.url ?? '';
  const mark = url.indexOf('?');
  if (mark === -1) return;
  const query = url.slice(mark + 1);
  if (query.length > QUERY_MAX_LENGTH) {
    const text = `the query string is ${query.length} characters long; at most ${QUERY_MAX_LENGTH} are accepted`;
    throw new ApiError('FORMAT_ERROR', text);
  }
  let parameters = 1;
  for (let i = query.indexOf('&'); i !== -1; i = query.indexOf('&', i + 1)) parameters += 1;
  if (parameters > QUERY_MAX_PARAMETERS) {
    const text = `the query string has ${parameters} parameters; at most ${QUERY_MAX_PARAMETERS} are accepted`;
    throw new ApiError('FORMAT_ERROR', text);
  }
}
