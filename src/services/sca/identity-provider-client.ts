/** One entry of RFC 9396 `authorization_details`: what the PSU authorises, for the provider to show and sign. */
export interface AuthorizationDetail {
  type: string;
  [field: string]: unknown;
}

/** What the bank asks the provider for one log-in; the secrets stay with the bank. */
export interface LoginRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Undefined when there is nothing to sign (a PSU session). */
  authorizationDetails: AuthorizationDetail[] | undefined;
}

/** What the provider's verified answer says. */
export interface LoginResult {
  /** The ID token's claims, verified (signature, iss, aud, nonce, exp). */
  claims: Record<string, unknown>;
  /** `authorization_details` of the token response, when the provider returns them. */
  authorizationDetails: unknown;
}

/**
 * The PSU's identity provider as the SCA flow needs it: where to send the browser, and what its
 * callback proves. Implemented with openid-client (oidc-relying-party.ts); the flow (oidc-login.ts)
 * knows no OpenID Connect library.
 */
export interface IdentityProviderClient {
  authorizationUrl(request: LoginRequest): Promise<URL>;
  /** `query` is the callback's query as the browser brought it (code, state, iss; or error). */
  exchange(query: URLSearchParams, checks: Omit<LoginRequest, 'authorizationDetails'>): Promise<LoginResult>;
}

/** The provider did not answer (down, slow, a 5xx): the PSU is told, and may try again later. */
export class IdentityProviderUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`the identity provider is unavailable: ${reason}`);
    this.name = 'IdentityProviderUnavailable';
  }
}

/**
 * The provider's answer was refused (an error it sent, a token that fails a check). `reason` is a
 * code or the library's words: never a token or a claim's value, so that it may be logged.
 */
export class IdentityProviderRefused extends Error {
  constructor(
    readonly reason: string,
    /** The PSU pressed cancel at the provider (`access_denied`). */
    readonly cancelled = false,
  ) {
    super(`the identity provider's answer was refused: ${reason}`);
    this.name = 'IdentityProviderRefused';
  }
}
