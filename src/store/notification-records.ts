/** Records of the notification outbox (notification-store.ts). */

/** An event as the sender needs it: whom to call, and what to tell. */
export interface NotificationEvent {
  /** Its place in the outbox; events of one resource are sent in this order. */
  seq: number;
  eventId: string;
  tppId: string;
  uri: string;
  /** The resource the subscription was given on. */
  resource: { kind: string; id: string };
  /** The resource whose status changed: the same, or an authorisation of it. */
  subject: { kind: string; id: string };
  statusKind: 'transactionStatus' | 'scaStatus' | 'consentStatus';
  /** As stored in the subject's row. */
  status: string;
  content: 'SCA' | 'PROCESS' | 'LAST';
  last: boolean;
  occurredAt: string;
  /** When it was written, by the wall clock. */
  createdAt: string;
  /** Tries before this one. */
  attempts: number;
}

/** How a try ended, for the delivery log: the answer's status, or why none came. */
export interface NotificationAttempt {
  startedAt: Date;
  durationMs: number;
  status?: number;
  error?: string;
  /** The first bytes of the answer's body. */
  answer?: string;
}

/** Why an event is no longer sent. */
export type NotificationEnd = 'delivered' | 'gone' | 'expired';

/** An event as the console's delivery log shows it, with its tries. */
export interface NotificationLogEntry extends Omit<NotificationEvent, 'attempts'> {
  nextAttemptAt: string | undefined;
  endedAt: string | undefined;
  endReason: string | undefined;
  tries: (NotificationAttempt & { attempt: number })[];
}

/** Where a subject's link starts: the payment's service and product, an authorisation's kind and object (notification-body.ts). */
export interface NotificationSubjectFacts {
  paymentService?: string;
  paymentProduct?: string;
  authorisationKind?: string;
  objectId?: string;
}

/** How one try of a claimed event ended: the event ended (`end`), or it is tried again at `nextAttemptAt`. */
export interface NotificationOutcome {
  seq: number;
  attempt: NotificationAttempt;
  end?: NotificationEnd;
  nextAttemptAt?: Date;
}
