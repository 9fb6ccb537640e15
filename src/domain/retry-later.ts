import { ApiError } from './api-error.js';
import type { ErrorCode } from './error-catalogue.js';

/**
 * A refusal that passes with time (a bank busy with another bulk operation, a TPP over its rate):
 * answered with Retry-After, the seconds after which the same request may succeed.
 */
export class RetryLater extends ApiError {
  constructor(
    code: ErrorCode,
    path: string,
    text: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, text, [{ code, path, text }]);
  }
}
