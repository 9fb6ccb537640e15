/**
 * Reading a posted HTML form, as the SCA pages and the sandbox console both do (their forms are
 * urlencoded by @fastify/formbody): fields as text, bounded, never trusted to be there.
 */

/** A posted form as its fields; anything else (no body) as none. */
export function formOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/** Form fields as text, bounded; a missing one is empty, which no step token, code or choice matches. */
export function fieldsOf<K extends string>(body: unknown, names: readonly K[]): Record<K, string> {
  const form = formOf(body);
  return Object.fromEntries(
    names.map((name) => [name, typeof form[name] === 'string' ? (form[name] as string).slice(0, 100) : '']),
  ) as Record<K, string>;
}
