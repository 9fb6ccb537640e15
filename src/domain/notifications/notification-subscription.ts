import { type TppMessage, clipText } from '../api-error.js';
import type { Json } from '../json.js';
import { NOTIFICATION_CONTENTS, type NotificationContent, formatNotificationContent } from './notification-content.js';
import { judgeNotificationUri } from './notification-uri.js';

/**
 * A TPP's subscription to a resource's notifications (Berlin Group's resource status notification,
 * docs/notifications.md): stored with the resource in the transaction that creates it.
 */
export interface NotificationSubscription {
  /** Where the bank sends, as judged (the WHATWG URL parser's form of TPP-Notification-URI). */
  readonly uri: string;
  /** What the bank sends, in the order of NOTIFICATION_CONTENTS; never empty. */
  readonly content: readonly NotificationContent[];
}

/**
 * What a create's notification headers asked for, judged: nothing (no TPP-Notification-URI), a
 * subscription, or a URI the bank will not call and why. Made once per request (the request context).
 */
export type NotificationRequest =
  | { readonly kind: 'none' }
  | { readonly kind: 'subscribed'; readonly subscription: NotificationSubscription }
  | { readonly kind: 'refused'; readonly reason: string };

export const NO_NOTIFICATION: NotificationRequest = { kind: 'none' };

/**
 * Without TPP-Notification-Content-Preferred the bank sends all three: a TPP that gave a URI wants to
 * stop polling, and each of SCA, PROCESS and LAST is a change it would otherwise poll for
 * (docs/decisions/0328).
 */
export const DEFAULT_NOTIFICATION_CONTENT: readonly NotificationContent[] = NOTIFICATION_CONTENTS;

/**
 * The request's notification headers, both well-formed already (the route schema's formats), judged
 * against the names of the TPP's certificate. Every content is supported, so the bank sends what the
 * TPP preferred.
 */
export function judgeNotificationRequest(
  uri: string | undefined,
  preferred: readonly NotificationContent[] | undefined,
  certificateNames: readonly string[],
  sandbox: boolean,
): NotificationRequest {
  if (uri === undefined) return NO_NOTIFICATION;
  const judged = judgeNotificationUri(uri, certificateNames, sandbox);
  if (!judged.compliant) return { kind: 'refused', reason: judged.reason };
  return { kind: 'subscribed', subscription: { uri: judged.uri, content: preferred ?? DEFAULT_NOTIFICATION_CONTENT } };
}

/** The answer headers of a create: ASPSP-Notification-Support, and ASPSP-Notification-Content when it is true. None without a URI (docs/decisions/0328). */
export function notificationAnswerHeaders(request: NotificationRequest): Record<string, string> {
  if (request.kind === 'none') return {};
  if (request.kind === 'refused') return { 'ASPSP-Notification-Support': 'false' };
  return {
    'ASPSP-Notification-Support': 'true',
    'ASPSP-Notification-Content': formatNotificationContent(request.subscription.content),
  };
}

/**
 * The WARNING that says why the bank will not call the URI, beside the created resource
 * (docs/decisions/0327): the create itself succeeded.
 */
export function notificationWarning(request: NotificationRequest): TppMessage | undefined {
  if (request.kind !== 'refused') return undefined;
  return {
    category: 'WARNING',
    code: 'BAD_REQUEST',
    path: 'header:TPP-Notification-URI',
    text: clipText(
      `TPP-Notification-URI is not used, and no notification will be sent (ASPSP-Notification-Support: false): ${request.reason}`,
    ),
  };
}

/** The body with the refusal's warning added to its tppMessages (after those it has). */
export function withNotificationWarning(body: Json, request: NotificationRequest): Json {
  const warning = notificationWarning(request);
  if (warning === undefined) return body;
  const earlier = Array.isArray(body.tppMessages) ? (body.tppMessages as TppMessage[]) : [];
  return { ...body, tppMessages: [...earlier, warning] };
}
