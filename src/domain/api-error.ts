import {
  type ErrorCode,
  type MessageCode,
  type TppMessageCode,
  statusOf,
  tppMessageCodeOf,
} from './error-catalogue.js';
import { ERROR_LIST_MAX_ENTRIES, TPP_MESSAGE_TEXT_MAX_LENGTH } from './limits.js';

export type MessageCategory = 'ERROR' | 'WARNING';

/**
 * One finding about a request. Built with the most precise code known (SIGNATURE_INVALID); answered
 * as the specification's TppMessage through publishTppMessages, whose code is one of its list.
 */
export interface TppMessage {
  category: MessageCategory;
  code: MessageCode;
  /** JSON path of the field (`$.payments[0].creditorName`) or the header name (`header:PSU-ID`). */
  path?: string;
  text?: string;
}

/** A problem found in a request; several are gathered and answered at once. */
export interface Problem {
  code: ErrorCode;
  path?: string;
  text: string;
  /**
   * Set on a summary that stands for this many problems found but not described, because no answer
   * lists them (ERROR_LIST_MAX_ENTRIES): they count in the total, and the summary is never listed.
   */
  count?: number;
}

/**
 * An error that is answered to the TPP. The status follows from the code (error-catalogue.ts);
 * every problem found is counted, not only the first, and the first ERROR_LIST_MAX_ENTRIES are
 * listed in tppMessages (the message gives the total), so that no input makes the answer large.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly tppMessages: TppMessage[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    problems: readonly Problem[] = [{ code, text: message }],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = statusOf(code);
    for (const problem of problems) {
      // Programmer error: an answer has one status, so its problems must agree on it.
      if (statusOf(problem.code) !== this.status) {
        throw new Error(`ApiError mixes ${code} (${this.status}) with ${problem.code} (${statusOf(problem.code)})`);
      }
    }
    this.tppMessages = problems
      .filter((problem) => problem.count === undefined)
      .slice(0, ERROR_LIST_MAX_ENTRIES)
      .map((problem) => toTppMessage(problem));
  }

  /** One answer for several problems: the first problem's code leads. */
  static of(problems: readonly Problem[]): ApiError {
    const first = problems.find((problem) => problem.count === undefined) ?? problems[0];
    if (first === undefined) throw new Error('ApiError.of needs at least one problem');
    let total = 0;
    for (const problem of problems) total += problem.count ?? 1;
    const message =
      total === 1
        ? first.text
        : total <= ERROR_LIST_MAX_ENTRIES
          ? `${total} problems in the request; the first: ${first.text}`
          : `${total} problems in the request, of which tppMessages lists the first ${ERROR_LIST_MAX_ENTRIES}; the first: ${first.text}`;
    return new ApiError(first.code, message, problems);
  }
}

export function toTppMessage(problem: Problem, category: MessageCategory = 'ERROR'): TppMessage {
  const message: TppMessage = { category, code: problem.code, text: clipText(problem.text) };
  if (problem.path !== undefined) message.path = problem.path;
  return message;
}

/** A TppMessage as answered: its code is one of the specification's list. */
export interface PublishedTppMessage extends TppMessage {
  code: TppMessageCode;
}

/**
 * The tppMessages as an answer carries them: each code mapped into the specification's list
 * (error-catalogue.ts, TPP_MESSAGE_CODE_OF). A mapped message's text ends with its precise code
 * (`... does not verify ... (SIGNATURE_INVALID)`), so the developer still reads it, also in a 2xx
 * answer, which has no body code. Applying it twice changes nothing.
 */
export function publishTppMessages(messages: readonly TppMessage[]): PublishedTppMessage[] {
  return messages.map((message) => {
    const code = tppMessageCodeOf(message.code);
    if (code === message.code) return message as PublishedTppMessage;
    const precise = `(${message.code})`;
    const text =
      message.text === undefined
        ? precise
        : `${clipText(message.text, TPP_MESSAGE_TEXT_MAX_LENGTH - precise.length - 1)} ${precise}`;
    return { ...message, code, text };
  });
}

/** The specification bounds tppMessages text and psuMessage at 512 characters. */
export function clipText(text: string, maxLength: number = TPP_MESSAGE_TEXT_MAX_LENGTH): string {
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1)}…`;
}
