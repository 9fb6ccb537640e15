import { ApiError, type Problem } from '../domain/api-error.js';

/** The answer to a header that is wrong: its code, and a text that names the header and says what is wrong. */
export function headerError(code: Problem['code'], header: string, text: string): ApiError {
  const message = `${header} ${text}`;
  return new ApiError(code, message, [{ code, path: `header:${header}`, text: message }]);
}
