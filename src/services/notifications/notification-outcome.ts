import { backoffMs } from '../../domain/backoff.js';
import {
  NOTIFICATION_RETRY_BASE_MS,
  NOTIFICATION_RETRY_MAX_MS,
  NOTIFICATION_RETRY_WINDOW_MS,
} from '../../domain/limits.js';
import type { NotificationEvent, NotificationOutcome } from '../../store/notification-records.js';
import type { SendResult } from './notification-sender.js';

/**
 * What a try's answer makes of its event (docs/decisions/0333): a 2xx ends it as delivered, a 410 as
 * gone (the resource's notifications stop), anything else is tried again with exponential backoff and
 * jitter, until NOTIFICATION_RETRY_WINDOW_MS after the event was written: then it ends as expired.
 */
export function outcomeOf(
  event: NotificationEvent,
  result: SendResult,
  startedAt: Date,
  at: Date,
  random: () => number = Math.random,
): NotificationOutcome {
  const attempt = { startedAt, ...result };
  if (isDelivered(result)) return { seq: event.seq, attempt, end: 'delivered' };
  if (result.status === 410) return { seq: event.seq, attempt, end: 'gone' };
  const next = new Date(at.getTime() + retryDelayMs(event.attempts, random));
  if (next.getTime() - Date.parse(event.createdAt) > NOTIFICATION_RETRY_WINDOW_MS)
    return { seq: event.seq, attempt, end: 'expired' };
  return { seq: event.seq, attempt, nextAttemptAt: next };
}

export function isDelivered(result: SendResult): boolean {
  return result.status !== undefined && result.status >= 200 && result.status < 300;
}

/** How long after its `attempts`-th failure an event is tried again: from NOTIFICATION_RETRY_BASE_MS up to NOTIFICATION_RETRY_MAX_MS. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  return backoffMs(attempts, NOTIFICATION_RETRY_BASE_MS, NOTIFICATION_RETRY_MAX_MS, random);
}
