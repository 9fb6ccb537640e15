import type { Language } from '../domain/language.js';
import type { TppIdentity } from '../domain/psp-role.js';
import type { PsuHeaders } from '../domain/psu.js';
import type { NotificationRequest } from '../domain/notifications/notification-subscription.js';
import type { ScaRequestContext } from './sca-service.js';

/**
 * The facts of one signed request: made once, before the handler runs, by the HTTP layer's hooks
 * (http/hooks/request-context.ts), and handed to the services as a value. Nothing below the hooks
 * reads a request header for these facts again.
 */
export interface RequestContext {
  /** The TPP the request's certificate and signature identify. */
  readonly tpp: TppIdentity;
  /** The bank the TPP's requests work in: its own in the sandbox, production's one bank (Banks.of). */
  readonly bank: string;
  /** X-Request-ID as sent; the authentication hook requires it on every signed request. */
  readonly requestId: string;
  /**
   * The X-Request-ID was bound before to exactly this request (a client's retry; the replay guard):
   * a create may have a stored answer (idempotent-create.ts), an unattended read counts once.
   */
  readonly retry: boolean;
  /** SHA-256 (hex) of the body bytes as received, of the empty body when there is none. */
  readonly bodySha256: string;
  /**
   * The PSU as the headers name them, as sent (identifyPsu reports a missing or malformed identity
   * by them): PSU-ID lower-cased, X-PSU-IDENTITY with its keyed hash made once, PSU-Corporate-ID and
   * PSU-Context.
   */
  readonly psu: RequestPsu;
  /**
   * What the SCA is told of the request: the TPP, the PSU (blank headers left out), and the TPP's
   * preferences (TPP-Redirect-URI, TPP-Session-ID, TPP-Redirect-Preferred, X-PSU-AuthMethod-Preferred).
   */
  readonly sca: ScaRequestContext;
  /** PSU-IP-Address was sent: the PSU asked for this read (RTS 36(5)). */
  readonly psuPresent: boolean;
  /** x-accept-fix as sent: its names are judged against the bank's date (domain/accept-fix.ts). */
  readonly acceptFix: string | undefined;
  /** Language of texts meant for people in the answer (Accept-Language). */
  readonly language: Language;
  /**
   * TPP-Notification-URI and TPP-Notification-Content-Preferred, judged against the certificate's
   * names (docs/notifications.md): what a create answers and stores; other operations ignore it.
   */
  readonly notification: NotificationRequest;
}

/** The PSU headers as sent, with the national identity number's keyed hash made once. */
export type RequestPsu = Readonly<PsuHeaders & { nationalIdHash: string | undefined }>;
