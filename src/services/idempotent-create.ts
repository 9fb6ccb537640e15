import type { BindingStore } from '../store/binding-store.js';
import { ApiError } from '../domain/api-error.js';
import { requestIdReusedText } from '../domain/request-binding.js';
import { PsuAuthenticationRequired } from '../domain/sca.js';
import type { ResourceRef, StoredTppRequest, TppRequestRecord } from '../store/store.js';
import type { Json } from '../domain/json.js';
import {
  type NotificationRequest,
  notificationAnswerHeaders,
  withNotificationWarning,
} from '../domain/notifications/notification-subscription.js';
import type { RequestContext } from './request-context.js';

/** An answer to a TPP's request: its status and body, and headers of its own (ASPSP-Notification-Support). */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Readonly<Record<string, string>> | undefined;
}

/** What a create did: made the resource (its answer), or found the request stored already (the store's replay). */
export type Created = { created: Answer } | { replayed: StoredTppRequest };

/**
 * Keeps a create's answer for its retries: the record the store writes in the transaction that
 * makes the resource, so that a resource never exists without the answer that announced it. The
 * resource names what the request's notification subscription, if any, is stored under.
 */
export type RecordAnswer = (answer: Answer, resource: ResourceRef) => TppRequestRecord;

/** The facts of the request an idempotent create needs. */
export type CreateRequest = Pick<RequestContext, 'tpp' | 'requestId' | 'retry' | 'bodySha256' | 'notification'>;

/**
 * Every resource a TPP creates with an X-Request-ID (payments of every product, signing baskets,
 * consents, authorisations) is created through here: a retry of the request gets the first answer
 * and creates nothing (docs/decisions/0048). `operation` names the create (method and
 * path); `create` validates, applies the rules and stores the resource with the record it is given,
 * and writes no idempotency code of its own.
 *
 * A retry is answered as the first request was, even if the rules would now refuse it (an execution
 * date that has since become yesterday): a request whose X-Request-ID was bound before is looked up
 * first. One bound anew may still repeat a stored create whose binding expired (a retry signed again
 * later): it is looked up when the rules refuse it, and the store's create answers it from the
 * stored request when they accept it. A first request so makes no look-up that cannot find anything.
 */
export async function idempotentCreate(
  store: BindingStore,
  operation: string,
  request: CreateRequest,
  create: (record: RecordAnswer) => Promise<Created>,
): Promise<Answer> {
  if (request.retry) {
    const earlier = await store.findTppRequest(request.tpp.id, request.requestId);
    if (earlier !== undefined) return replay(earlier, operation, request);
  }
  let outcome: Created;
  const { notification } = request;
  try {
    outcome = await create((created, resource) => {
      const answer = withNotification(created, notification);
      return {
        tppId: request.tpp.id,
        requestId: request.requestId,
        operation,
        bodySha256: request.bodySha256,
        responseStatus: answer.status,
        responseBody: JSON.stringify(answer.body),
        responseHeaders: answer.headers === undefined ? undefined : JSON.stringify(answer.headers),
        subscription: notification.kind === 'subscribed' ? { resource, ...notification.subscription } : undefined,
      };
    });
  } catch (error) {
    if (request.retry || !(error instanceof ApiError || error instanceof PsuAuthenticationRequired)) throw error;
    const earlier = await store.findTppRequest(request.tpp.id, request.requestId);
    if (earlier === undefined) throw error;
    return replay(earlier, operation, request);
  }
  return 'created' in outcome
    ? withNotification(outcome.created, notification)
    : replay(outcome.replayed, operation, request);
}

/**
 * A create's answer as the notification headers make it (docs/notifications.md): with
 * ASPSP-Notification-Support (and -Content), and the reason in a WARNING when the URI is not used.
 * The same answer is stored for the create's retries.
 */
function withNotification(answer: Answer, notification: NotificationRequest): Answer {
  if (notification.kind === 'none') return answer;
  const body = typeof answer.body === 'object' && answer.body !== null ? (answer.body as Json) : undefined;
  return {
    status: answer.status,
    body: body === undefined ? answer.body : withNotificationWarning(body, notification),
    headers: { ...answer.headers, ...notificationAnswerHeaders(notification) },
  };
}

/**
 * The stored answer, when the request repeats the one stored: the same operation and body bytes.
 * Otherwise the X-Request-ID was used for another request, 409 (its binding has expired, or it
 * would have been refused before anything ran).
 */
function replay(earlier: StoredTppRequest, operation: string, request: CreateRequest): Answer {
  if (earlier.operation !== operation || earlier.bodySha256 !== request.bodySha256) {
    const text = requestIdReusedText(request.requestId, earlier.operation, earlier.operation === operation);
    throw new ApiError('CONFLICT', text, [{ code: 'CONFLICT', path: 'header:X-Request-ID', text }]);
  }
  return {
    status: earlier.responseStatus,
    body: JSON.parse(earlier.responseBody) as unknown,
    headers:
      earlier.responseHeaders === undefined
        ? undefined
        : (JSON.parse(earlier.responseHeaders) as Record<string, string>),
  };
}
