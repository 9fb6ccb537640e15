/**
 * An error's message with its causes: an aborted exchange (src/toolkit/http-exchange.ts) says only
 * "The operation was aborted", and why (a timeout) is in its `cause`; a wrapped error's own message
 * (connect ECONNREFUSED 127.0.0.1:8080, a certificate, a reset) is in its `cause` too.
 */
export function causeOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    const message = current instanceof Error ? current.message : String(current);
    if (message !== '' && !parts.includes(message)) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}
