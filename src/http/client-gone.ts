import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The status a request is counted and logged with when its client closed the connection before the
 * answer (nginx's 499, "client closed request"): no answer reaches anyone, and it is not the server's
 * fault, so it must neither log "unexpected fault" nor count as a 5xx (docs/decisions/0264).
 */
const CLIENT_CLOSED_REQUEST = 499;

/** Thrown by the first onRequest hook when the connection is already gone: nothing more is done for it. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection before the request was answered');
    this.name = 'ClientGoneError';
  }
}

/**
 * Whether the client's connection is closed. Headers followed at once by a reset arrive together:
 * Node parses the request before it reads the reset, so the socket is not yet destroyed, but the
 * kernel no longer knows its peer and its address is undefined (what the rate limit tripped over).
 * The address is read once per connection (Node keeps it), so the check costs no system call per request.
 */
export function isClientGone(request: FastifyRequest): boolean {
  const socket = request.raw.socket;
  return socket === null || socket.destroyed || socket.remoteAddress === undefined;
}

/**
 * The end of a request whose client is gone: whatever was thrown (by our code, or by a plugin reading
 * the closed socket's address, as the rate limit does) is logged at info, and the request counted as 499.
 */
export function endForGoneClient(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  request.log.info(
    { err: error instanceof ClientGoneError ? undefined : error },
    'client closed the connection before the answer',
  );
  const sent = reply.code(CLIENT_CLOSED_REQUEST).send();
  // Node 24 finishes no answer on a socket that is gone, and Fastify runs its onResponse hooks (the
  // request line, the metrics) only on the answer's finish (or error, which it logs as a fault): the
  // answer's close finishes it here, once.
  const response = reply.raw;
  const ended = () => {
    if (!response.writableFinished) response.emit('finish');
  };
  if (response.closed) queueMicrotask(ended);
  else response.once('close', ended);
  return sent;
}
