import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isPsuAddress } from '../../domain/psu-address.js';
import { isHttpAddress } from '../../domain/redirect-uri.js';
import { isNotificationUri } from '../../domain/notifications/notification-uri.js';
import { parseNotificationContent } from '../../domain/notifications/notification-content.js';

/** What the route schemas name beyond JSON Schema: their annotations and formats (ajv-setup.ts gives them to Ajv). */

/** Annotation that says in words what a pattern, enum, format or set of alternatives requires. */
export const RULE_TEXT = 'x-rule-text';
/** Format of an absolute http or https address that the server can later parse and extend. */
export const HTTP_ADDRESS_FORMAT = 'http-address';
/** Annotation on an object schema: the error code when one of its required properties is missing (KID_MISSING). */
export const REQUIRED_CODE = 'x-required-code';

/** Format of PSU-IP-Address: an IP address a PSU's device can have (domain/psu-address.ts). */
export const PSU_ADDRESS_FORMAT = 'psu-ip-address';

/** Format of TPP-Notification-URI: an absolute URI (RFC 3986) the WHATWG URL parser reads (domain/notifications/notification-uri.ts). */
export const NOTIFICATION_URI_FORMAT = 'notification-uri';
/** Format of TPP-Notification-Content-Preferred: status=SCA,PROCESS,LAST, none repeated (domain/notifications/notification-content.ts). */
export const NOTIFICATION_CONTENT_FORMAT = 'notification-content';

export const notificationUriFormat = { type: 'string' as const, validate: isNotificationUri };
export const notificationContentFormat = {
  type: 'string' as const,
  validate: (value: string) => parseNotificationContent(value) !== undefined,
};

/** An address the WHATWG URL parser reads as http or https (TPP-Redirect-URI): a pattern cannot say it. */
export const httpAddressFormat = { type: 'string' as const, validate: isHttpAddress };

/** An IP address that can be a PSU's: a pattern cannot say which ranges are never one. */
export const psuAddressFormat = { type: 'string' as const, validate: isPsuAddress };

/** The formats the schemas use, by name: what precompiled validators are given (their code names them `formats`). */
export const FORMATS: Record<string, unknown> = {
  ...fullFormats,
  [HTTP_ADDRESS_FORMAT]: httpAddressFormat,
  [PSU_ADDRESS_FORMAT]: psuAddressFormat,
  [NOTIFICATION_URI_FORMAT]: notificationUriFormat,
  [NOTIFICATION_CONTENT_FORMAT]: notificationContentFormat,
};
