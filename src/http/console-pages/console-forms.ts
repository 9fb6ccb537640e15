import type { FastifyReply } from 'fastify';
import type { ConsoleNotice } from './console-texts.js';

/** What the console's forms share: their free text, the way back after an action and its notice (page-forms.ts reads the fields). */

/** After an action, back to a page of the console (Post/Redirect/Get): a reload shows it again and does not repeat the action. */
export function seeAfter(reply: FastifyReply, path: string, notice: ConsoleNotice): FastifyReply {
  const query = new URLSearchParams(
    Object.entries(notice).map(([name, value]): [string, string] => [name === 'kind' ? 'done' : name, String(value)]),
  );
  return reply.code(303).header('Location', `${path}?${query}`).send();
}

/** Notices that carry nothing but what was done. */
const PLAIN_NOTICES = [
  'reset',
  'snapshot-saved',
  'snapshot-restored',
  'snapshot-deleted',
  'scenario-armed',
  'scenario-disarmed',
  'notification-resent',
] as const;

/** The notice a page's address carries, when it is one the console gives. */
export function noticeOf(query: Record<string, unknown>): ConsoleNotice | undefined {
  const count = (name: string) => {
    const value = query[name];
    return typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
  };
  const executed = count('executed');
  const rejected = count('rejected');
  const plain = PLAIN_NOTICES.find((kind) => kind === query.done);
  if (plain !== undefined) return { kind: plain };
  switch (query.done) {
    case 'batch-run':
      return executed === undefined || rejected === undefined ? undefined : { kind: 'batch-run', executed, rejected };
    case 'clock-moved': {
      const batchRuns = count('batchRuns');
      return batchRuns === undefined || executed === undefined || rejected === undefined
        ? undefined
        : { kind: 'clock-moved', batchRuns, executed, rejected };
    }
    default:
      return undefined;
  }
}

/**
 * A free-text field as typed, trimmed: undefined when left empty, null when it is not text the console
 * takes (longer than `maxLength`, or with control characters).
 */
export function formText(value: unknown, maxLength: number): string | undefined | null {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (trimmed === '') return undefined;
  return trimmed.length > maxLength || /[\u0000-\u001f\u007f]/.test(trimmed) ? null : trimmed;
}

/** What a refusal of the bank's services says, every problem of it, for the page. */
export function problemText(error: { message: string; tppMessages: readonly { text?: string }[] }): string {
  const texts = error.tppMessages.map((m) => m.text).filter((text): text is string => text !== undefined);
  return texts.length > 0 ? texts.join(' ') : error.message;
}
