import { Problem } from './setting-problem.js';

/** A sandbox, where each TPP has a bank of its own, or the bank's production. */
export type Mode = 'sandbox' | 'production';

/** MODE: 'sandbox' or 'production', nothing else. */
export function parseMode(text: string): Mode | Problem {
  return text === 'sandbox' || text === 'production'
    ? text
    : new Problem(`MODE must be 'sandbox' or 'production' (got '${text}')`);
}
