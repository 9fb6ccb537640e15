import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, publishTppMessages } from '../domain/api-error.js';
import { HEADERS_MAX_BYTES } from '../domain/limits.js';
import { SYSTEM_NAME } from './error-response.js';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over the limit, bytes that
 * are not HTTP) still get the specification's error body, written on the socket.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError(
          'HEADERS_TOO_LARGE',
          `the request headers are larger than ${HEADERS_MAX_BYTES} bytes, the most this server reads`,
        )
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('REQUEST_TIMEOUT', 'the request was not received in time')
        : new ApiError('BAD_REQUEST', 'the request is not valid HTTP/1.1');
  const body = JSON.stringify({
    id: randomUUID(),
    system: SYSTEM_NAME,
    status: apiError.status,
    code: apiError.code,
    message: apiError.message,
    tppMessages: publishTppMessages(apiError.tppMessages),
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
