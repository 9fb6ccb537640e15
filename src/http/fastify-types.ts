import type { Language } from '../domain/language.js';
import type { TppIdentity } from '../domain/psp-role.js';
import type { AuthRequirement } from '../security/tpp-authenticator.js';
import type { RouteValidator } from './validation.js';

/** What an API operation declares in its route config. */
export interface ApiRouteConfig {
  /** TPP authentication the operation needs; null only for the public documentation. */
  auth: AuthRequirement | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Present on API operations: they are negotiated, authenticated, validated and answer error bodies. */
    api?: ApiRouteConfig;
    /** Compiled at route registration from the route schema. */
    validator?: RouteValidator;
  }
  interface FastifyRequest {
    /** The authenticated TPP; set by the authentication hook on every signed operation. */
    tpp: TppIdentity | null;
    /** The body bytes exactly as received, for the Digest check. */
    rawBody: Buffer | null;
    /** Language of texts meant for people in the answer (Accept-Language). */
    locale: Language;
    /** The error code answered, for the request's log line. */
    errorCode: string | null;
  }
}
