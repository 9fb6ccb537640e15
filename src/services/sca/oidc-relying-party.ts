import * as oidc from 'openid-client';
import type { PsuOidcSettings } from '../../config/psu-oidc-settings.js';
import { PSU_OIDC_MAX_AUTH_AGE_SECONDS, PSU_OIDC_TIMEOUT_SECONDS } from '../../domain/limits.js';
import {
  type IdentityProviderClient,
  IdentityProviderRefused,
  IdentityProviderUnavailable,
  type LoginRequest,
  type LoginResult,
} from './identity-provider-client.js';

/**
 * The bank as an OpenID Connect relying party of the PSU's identity provider, with openid-client:
 * discovery (once, again after a failure), the authorization request (pushed, RFC 9126, when the
 * provider offers it), and the code's exchange, which verifies the ID token's signature by the
 * provider's JWKS, iss, aud, exp, nonce and the state, with PKCE (S256).
 */
export class OidcRelyingParty implements IdentityProviderClient {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly settings: PsuOidcSettings,
    private readonly clientAuth: oidc.ClientAuth,
    /** Where the provider sends the browser back: PUBLIC_URL/sca/oidc/callback. */
    private readonly redirectUri: string,
  ) {}

  async authorizationUrl(request: LoginRequest): Promise<URL> {
    const config = await this.config();
    const metadata = config.serverMetadata();
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: this.settings.scope,
      state: request.state,
      nonce: request.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
      // SCA authenticates the PSU for this authorisation: a session the provider remembers does not do.
      prompt: 'login',
      max_age: String(PSU_OIDC_MAX_AUTH_AGE_SECONDS),
    };
    if (this.settings.acrValues.length > 0) parameters.acr_values = this.settings.acrValues.join(' ');
    if (request.authorizationDetails !== undefined)
      parameters.authorization_details = JSON.stringify(request.authorizationDetails);
    // Asked for by name where the provider takes the claims parameter; some release a claim only then.
    if (metadata.claims_parameter_supported === true) parameters.claims = JSON.stringify(this.claimsRequest());
    if (metadata.pushed_authorization_request_endpoint === undefined)
      return oidc.buildAuthorizationUrl(config, parameters);
    // Pushed: what the PSU signs never passes through the browser, where it could be changed.
    return oidc.buildAuthorizationUrlWithPAR(config, parameters).catch(failure);
  }

  async exchange(query: URLSearchParams, checks: Omit<LoginRequest, 'authorizationDetails'>): Promise<LoginResult> {
    const config = await this.config();
    // The address the provider was told to send the browser back to, as the token request must repeat it.
    const callback = new URL(this.redirectUri);
    callback.search = query.toString();
    const tokens = await oidc
      .authorizationCodeGrant(config, callback, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
        maxAge: PSU_OIDC_MAX_AUTH_AGE_SECONDS,
      })
      .catch(failure);
    const claims = tokens.claims();
    if (claims === undefined) throw new IdentityProviderRefused('no ID token');
    return { claims: { ...claims }, authorizationDetails: tokens.authorization_details };
  }

  private claimsRequest(): { id_token: Record<string, { essential: true } | null> } {
    const idToken: Record<string, { essential: true } | null> = { [this.settings.identityClaim]: { essential: true } };
    if (this.settings.nameClaim !== undefined) idToken[this.settings.nameClaim] = null;
    return { id_token: idToken };
  }

  /** The provider's metadata, discovered once; a failed discovery is tried again at the next log-in. */
  private config(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(new URL(this.settings.issuer), this.settings.clientId, undefined, this.clientAuth, {
        timeout: PSU_OIDC_TIMEOUT_SECONDS,
        execute: [
          // The ID token's signature is checked by the provider's JWKS even though it came over TLS
          // from the token endpoint: what the PSU signed is then provable afterwards.
          oidc.enableNonRepudiationChecks,
          // Only a loopback issuer may be http (config/psu-oidc-settings.ts).
          ...(new URL(this.settings.issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : []),
        ],
      })
      .catch((error: unknown) => {
        this.configuration = undefined;
        // Without the provider's metadata no PSU can log in, whatever the reason: it is unavailable to them.
        try {
          return failure(error);
        } catch (refused) {
          if (refused instanceof IdentityProviderRefused) throw new IdentityProviderUnavailable(refused.reason);
          throw refused;
        }
      });
    return this.configuration;
  }
}

/** openid-client's error as the flow's: the provider unavailable, or its answer refused. */
function failure(error: unknown): never {
  if (error instanceof oidc.AuthorizationResponseError)
    throw new IdentityProviderRefused(
      `the provider answered ${errorCode(error.error)}`,
      error.error === 'access_denied',
    );
  if (error instanceof oidc.ResponseBodyError) {
    if (error.status >= 500) throw new IdentityProviderUnavailable(`HTTP ${error.status}`);
    throw new IdentityProviderRefused(`the provider answered ${errorCode(error.error)}`);
  }
  // fetch's own failure: the provider cannot be reached.
  if (error instanceof TypeError) throw new IdentityProviderUnavailable(error.message);
  if (error instanceof oidc.ClientError) {
    const status = error.cause instanceof Response ? error.cause.status : undefined;
    if (
      error.code === 'OAUTH_TIMEOUT' ||
      error.code === 'OAUTH_ABORT' ||
      (error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && (status === undefined || status >= 500))
    )
      throw new IdentityProviderUnavailable(`${error.code}${status === undefined ? '' : ` (HTTP ${status})`}`);
    throw new IdentityProviderRefused(`${error.code ?? 'openid-client'}: ${error.message}`);
  }
  throw error;
}

/** An OAuth error code as logged: the callback's `error` comes from the browser, so anything else is cut out. */
function errorCode(code: string): string {
  return /^[a-z_]{1,64}$/.test(code) ? code : 'an error code of another form';
}
