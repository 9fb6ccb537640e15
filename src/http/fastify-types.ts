import type { Problem } from '../domain/api-error.js';
import type { Language } from '../domain/language.js';
import type { TppIdentity } from '../domain/psp-role.js';
import type { AuthRequirement } from '../security/tpp-authenticator.js';
import type { RouteValidator } from './schema-compiler/route-validator.js';

/** What an API operation declares in its route config. */
export interface ApiRouteConfig {
  /** TPP authentication the operation needs; null only for the public documentation. */
  auth: AuthRequirement | null;
  /**
   * The handler reports the schema's problems together with the domain's own (so a TPP sees every
   * violation at once); without it the validation hook answers them itself.
   */
  deferSchemaProblems?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles the large-body steps before the first large body comes (warm-up.ts). */
    warmUp: () => Promise<void>;
  }
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
    /** SHA-256 (hex) of the body bytes as received (of the empty body when there is none); set on signed operations. */
    bodySha256: string | null;
    /** The request repeats exactly the one its X-Request-ID was first used for (a client's retry); an unattended account read's retry counts once. */
    retry: boolean;
    /** Resolves once the request's X-Request-ID binding is on disk; the answer waits for it (app.ts onSend). */
    bindingDurable: Promise<void> | null;
    /** Language of texts meant for people in the answer (Accept-Language). */
    locale: Language;
    /** Problems the schema found, when the route reports them with its own (ApiRouteConfig.deferSchemaProblems). */
    schemaProblems: Problem[] | null;
    /** The error code answered, for the request's log line. */
    errorCode: string | null;
  }
}
