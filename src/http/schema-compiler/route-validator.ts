import type { ValidateFunction } from 'ajv';
import type { Problem } from '../../domain/api-error.js';
import type { ArrayBound } from './array-bounds.js';
import type { NumberType } from './number-text.js';

/** What a route's validator is made of: one compiled validator per part of the request. */

/** Compiles one schema of a route: a part of its request, or the entries of a list in its body; `coerce` for text parts. */
export type UnitCompiler = (coerce: boolean, schema: object) => ValidateFunction;

export type Part = 'headers' | 'params' | 'querystring' | 'body';

export interface PartValidator {
  part: Part;
  validate: ValidateFunction;
  /** The schema compiled (refs inlined, header names in lower case): its parts are found by schemaPath. */
  schema: unknown;
  /** Arrays of the body at the top or one property down, with their maxItems: checked before Ajv. */
  arrayBounds: ArrayBound[];
  /** Lower-case header name to the name as the specification writes it. */
  headerNames: Map<string, string>;
  /** The body without its lists' entries, and each list's entry validator: a large body is validated a chunk of entries at a time. */
  lists: ListValidator | undefined;
  /** A text part's number properties: their text is checked before Ajv coerces it (number-text.ts). */
  numbers: Map<string, NumberType>;
}

export interface ListValidator {
  outer: ValidateFunction;
  outerSchema: unknown;
  entries: { property: string | undefined; validate: ValidateFunction; schema: unknown }[];
}

export interface RequestParts {
  headers: unknown;
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Validates a request with a large body: the entries of the body's lists are validated a chunk at a
 * time, and the event loop turns between chunks (RouteValidator.now validates any other at once).
 */
export type ValidateRequest = (request: RequestParts) => Promise<Problem[]>;

export type RouteValidator = ValidateRequest & {
  /** Validates a request without a large body in one step, with no promise. */
  now: (request: RequestParts) => Problem[];
  /** Runs the body's list validators over made-up entries (warm-up.ts); resolves at once for a body without lists. */
  warm: () => Promise<void>;
};
