import type { TppMessage } from './api-error.js';

/** A JSON object as an answer's body is built: the one shape every view and answer shares. */
export type Json = Record<string, unknown>;

/** The body with its warnings as tppMessages; a body with none is answered as it is. */
export function withWarnings(body: Json, warnings: readonly TppMessage[]): Json {
  return warnings.length === 0 ? body : { ...body, tppMessages: warnings };
}
