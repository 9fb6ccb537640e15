/**
 * TPP-Notification-Content-Preferred and ASPSP-Notification-Content: Berlin Group's `status=X1, …, Xn`,
 * each Xi one of SCA, PROCESS, LAST, none repeated (docs/notifications.md; docs/decisions/0325).
 */

/** What a TPP can be notified of: SCA, each scaStatus change; PROCESS, each transactionStatus or consentStatus change; LAST, the final one. */
export const NOTIFICATION_CONTENTS = ['SCA', 'PROCESS', 'LAST'] as const;

export type NotificationContent = (typeof NOTIFICATION_CONTENTS)[number];

/** What the rule says in words, for the 400 that a malformed header gets. */
export const NOTIFICATION_CONTENT_RULE =
  'status= followed by one or more of SCA, PROCESS, LAST (upper case, comma-separated, each at most once), such as status=SCA,PROCESS,LAST';

/**
 * The contents a header names, in the order of NOTIFICATION_CONTENTS; undefined when it does not follow the grammar.
 * The key `status` is read in any case, as a parameter name; the constants only in upper case, as
 * Berlin Group writes its codes and as every other code this server reads is (docs/decisions/0325).
 * Spaces around `=` and the commas are allowed: Berlin Group's own example has them.
 */
export function parseNotificationContent(value: string): NotificationContent[] | undefined {
  const match = /^\s*status\s*=(.*)$/i.exec(value);
  if (match === null) return undefined;
  const named = new Set<string>();
  for (const part of match[1]!.split(',')) {
    const constant = part.trim();
    if (!isNotificationContent(constant) || named.has(constant)) return undefined;
    named.add(constant);
  }
  return NOTIFICATION_CONTENTS.filter((content) => named.has(content));
}

function isNotificationContent(value: string): value is NotificationContent {
  return (NOTIFICATION_CONTENTS as readonly string[]).includes(value);
}

/** The header's form of a set of contents: `status=SCA,PROCESS,LAST`. */
export function formatNotificationContent(contents: readonly NotificationContent[]): string {
  return `status=${contents.join(',')}`;
}
