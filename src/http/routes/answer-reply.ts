import type { FastifyReply } from 'fastify';
import type { Answer } from '../../services/idempotent-create.js';

/**
 * Sets a service's answer's status and headers on the reply and gives its body back, for an async
 * handler to return: Fastify then sends the body itself. A handler that returned the reply instead
 * would hand Fastify a thenable, whose `then` waits for the response to finish through a stream
 * listener on every create (bench/history.md, "Steady state").
 */
export function answerBody(reply: FastifyReply, answer: Answer): unknown {
  reply.code(answer.status);
  if (answer.headers !== undefined) reply.headers(answer.headers);
  return answer.body;
}
