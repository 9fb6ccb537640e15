import type { TppMessage } from './api-error.js';

/** A JSON object: an answer's body as it is built, or an object of a request's body as the product rules read it. */
export type Json = Record<string, unknown>;

/** The body with its warnings as tppMessages; a body with none is answered as it is. */
export function withWarnings(body: Json, warnings: readonly TppMessage[]): Json {
  return warnings.length === 0 ? body : { ...body, tppMessages: warnings };
}
