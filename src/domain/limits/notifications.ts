/**
 * Limits of the resource notifications a TPP subscribes to (docs/notifications.md).
 */

/**
 * TPP-Notification-URI, in characters: the same bound as TPP-Redirect-URI's (REDIRECT_URI_MAX_LENGTH),
 * since a TPP builds both the same way (a host of its own and a path naming its transaction); it is
 * stored with every subscribed resource, so it stays bounded.
 */
export const NOTIFICATION_URI_MAX_LENGTH = 2048;

/**
 * TPP-Notification-Content-Preferred, in characters: `status=SCA, PROCESS, LAST` is 25; 100 leaves
 * room for the spaces Berlin Group's own example puts after the commas, and bounds the format check.
 */
export const NOTIFICATION_CONTENT_MAX_LENGTH = 100;
