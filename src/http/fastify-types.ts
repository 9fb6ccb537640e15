import type { Problem } from '../domain/api-error.js';
import type { Language } from '../domain/language.js';
import type { SignatureExplanation } from '../security/signature-mistakes.js';
import type { AuthRequirement, Authentication } from '../security/tpp-authenticator.js';
import type { RequestContext } from '../services/request-context.js';

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

/** An authenticated request: the authenticator's findings and the X-Request-ID it required. */
export interface SignedRequest extends Authentication {
  requestId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles the large-body steps before the first large body comes (warm-up.ts). */
    warmUp: () => Promise<void>;
  }
  interface FastifyContextConfig {
    /** Present on API operations: they are negotiated, authenticated, validated and answer error bodies. */
    api?: ApiRouteConfig;
    /**
     * The answer is a document whose `_links` are examples, not links of this answer: under the sandbox
     * address they stay as written (hooks/sandbox-address.ts), so the document is one at both addresses.
     */
    linksAsWritten?: boolean;
    /**
     * The route runs a bulk operation on the TPP's bank (services/sandbox/bank-bulk.ts), which passes
     * the bank's gate alone: its request holds no reader, so that a second one while one runs is
     * refused at once (409) rather than queued behind it.
     */
    bulk?: boolean;
  }
  interface FastifyRequest {
    /** What the authentication hook established on a signed operation (hooks/authenticate.ts); null before it, or without it. */
    authentication: SignedRequest | null;
    /** The body bytes exactly as received, for the Digest check. */
    rawBody: Buffer | null;
    /** The request repeats exactly the one its X-Request-ID was first used for (a client's retry; hooks/replay-guard.ts). */
    retry: boolean;
    /** Resolves once the request's X-Request-ID binding is on disk; the answer waits for it (hooks/replay-guard.ts). */
    bindingDurable: Promise<void> | null;
    /** The request's facts on a signed operation, made before the handler (hooks/request-context.ts); handlers read it with contextOf. */
    requestContext: RequestContext | null;
    /** Language of texts meant for people in the answer (Accept-Language). */
    locale: Language;
    /** Problems the schema found, when the route reports them with its own (ApiRouteConfig.deferSchemaProblems). */
    schemaProblems: Problem[] | null;
    /** Sandbox only: what did not match in a refused TPP authentication, answered beside the error (hooks/authenticate.ts). */
    signatureExplanation: SignatureExplanation | null;
    /** The error code answered, for the request's log line. */
    errorCode: string | null;
    /** Fastify's route options of the request, once read (route-options.ts); null before. */
    routeOptionsRead: FastifyRequest['routeOptions'] | null;
    /** The release of the bank's gate this request holds as a reader (hooks/tpp-bank.ts); null when it holds none. */
    bankRelease: (() => void) | null;
    /** The sandbox scenario that answered the request (bank-throttled, ...): its log line and metrics count it apart (docs/scenarios.md). */
    scenario: string | null;
  }
}
