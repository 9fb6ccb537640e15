import type { FastifyRequest } from 'fastify';
import { type NationalIdKey, hashNationalId } from '../../domain/psu.js';
import type { Banks } from '../../services/banks.js';
import type { RequestContext } from '../../services/request-context.js';
import { signedRequestOf } from './authenticate.js';
import type { SometimesWaiting } from './waits-only-when-needed.js';
import { parseNotificationContent } from '../../domain/notifications/notification-content.js';
import { isNotificationUri } from '../../domain/notifications/notification-uri.js';
import {
  NO_NOTIFICATION,
  type NotificationRequest,
  judgeNotificationRequest,
} from '../../domain/notifications/notification-subscription.js';

/**
 * The last step of a signed operation's hook: the request's facts, made once from what the steps before it
 * established and from its headers, for the handler to hand to the services (contextOf). The
 * national identity number is hashed here, once a request, and kept only as its keyed hash.
 */
export function buildRequestContext(banks: Banks, nationalIdKey: NationalIdKey): SometimesWaiting {
  return (request) => {
    request.requestContext = requestContextOf(request, banks, nationalIdKey);
    return undefined;
  };
}

/** The facts of the signed request the handler serves; a route that is not signed has none, and asking is a fault. */
export function contextOf(request: FastifyRequest): RequestContext {
  const context = request.requestContext;
  if (context === null)
    throw new Error(`${request.method} ${request.url} has no request context: only a signed operation has one`);
  return context;
}

function requestContextOf(request: FastifyRequest, banks: Banks, nationalIdKey: NationalIdKey): RequestContext {
  const { tpp, requestId, bodySha256, certificateNames } = signedRequestOf(request);
  const { headers } = request;
  /** A header as sent: identifyPsu tells a blank header from a missing one. */
  const sent = (name: string): string | undefined => {
    const value = headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  /** A header as the SCA takes it: trimmed, and a blank one as not sent. */
  const given = (name: string): string | undefined => {
    const value = sent(name)?.trim();
    return value === '' ? undefined : value;
  };
  const nationalId = given('x-psu-identity');
  const nationalIdHash = nationalId === undefined ? undefined : hashNationalId(nationalIdKey, nationalId);
  return {
    tpp,
    bank: banks.of(tpp.id),
    requestId,
    retry: request.retry,
    bodySha256,
    psu: {
      psuId: sent('psu-id')?.toLowerCase(),
      nationalId: sent('x-psu-identity'),
      nationalIdHash,
      corporateId: sent('psu-corporate-id'),
      context: sent('psu-context'),
    },
    sca: {
      tppId: tpp.id,
      tppName: tpp.name,
      psuId: given('psu-id')?.toLowerCase(),
      psuNationalIdHash: nationalIdHash,
      psuCorporateId: given('psu-corporate-id'),
      psuContext: given('psu-context'),
      authMethodPreferred: given('x-psu-authmethod-preferred'),
      redirectPreferred: given('tpp-redirect-preferred') !== 'false',
      tppRedirectUri: given('tpp-redirect-uri'),
      tppSessionId: given('tpp-session-id'),
    },
    psuPresent: typeof headers['psu-ip-address'] === 'string',
    acceptFix: sent('x-accept-fix'),
    language: request.locale,
    notification: notificationOf(
      sent('tpp-notification-uri'),
      sent('tpp-notification-content-preferred'),
      certificateNames,
      banks.mode === 'sandbox',
    ),
  };
}

/**
 * The notification headers judged. The operations that take them declare them, and their schema
 * refused a malformed one with a 400 before this runs; on any other operation a value that is not
 * well-formed counts as not sent, and nothing uses it there.
 */
function notificationOf(
  uri: string | undefined,
  preferred: string | undefined,
  certificateNames: readonly string[],
  sandbox: boolean,
): NotificationRequest {
  if (uri === undefined || !isNotificationUri(uri)) return NO_NOTIFICATION;
  const content = preferred === undefined ? undefined : parseNotificationContent(preferred);
  return judgeNotificationRequest(uri, content, certificateNames, sandbox);
}
