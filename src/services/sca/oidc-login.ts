import { createHmac } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { NationalIdKey } from '../../domain/psu.js';
import type { Authorisation } from '../../store/sca-records.js';
import type { Banks } from '../banks.js';
import { authorizationDetailsOf } from './authorization-details.js';
import type { AuthorisationSteps } from './authorisation-steps.js';
import {
  type IdentityProviderClient,
  IdentityProviderRefused,
  IdentityProviderUnavailable,
} from './identity-provider-client.js';
import type { LoginStep } from './login-step.js';
import { type ScaMessage, type ScaPage, message } from './sca-page.js';
import type { ScaPayments } from './sca-payments.js';
import { failureRedirect } from './tpp-redirect.js';

/** The browser goes to the identity provider's authorization endpoint. */
export interface ProviderRedirect {
  kind: 'provider';
  url: string;
}

/** What of the ID token the bank relies on (config/psu-oidc-settings.ts). */
export interface OidcClaimsRule {
  /** The acr values the ID token's `acr` must be one of; empty: not checked. */
  acrValues: readonly string[];
  identityClaim: string;
}

/** Identity numbers are digits, or letters and digits for a provider's own form; never longer than this. */
const NATIONAL_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The PSU logs in at the bank's identity provider over OpenID Connect instead of on the bank's
 * form (docs/sca.md, "Production log-in"). The authorisation's login step is the flow's one record:
 * `state` is its step token (bound to the browser by the HTTP layer, as every form's step is), and
 * the nonce and PKCE verifier are MACs of that token under the installation's key, so nothing of
 * the flow is kept in the browser and nothing new in the database (docs/decisions/0302). The step
 * token works once and within the link's 15 minutes: a replayed callback, or one after the link
 * expired, finds no step.
 */
export class OidcLogin {
  private readonly secretKey: Buffer;

  constructor(
    private readonly provider: IdentityProviderClient,
    private readonly rule: OidcClaimsRule,
    nationalIdKey: NationalIdKey,
    private readonly steps: AuthorisationSteps,
    private readonly payments: ScaPayments,
    private readonly login: LoginStep,
    private readonly banks: Banks,
  ) {
    this.secretKey = createHmac('sha256', nationalIdKey.bytes).update('PSU log-in over OpenID Connect').digest();
  }

  /**
   * The log-in page LoginStep.open made (the link was valid and is used up) becomes the way to the
   * provider, with what the PSU authorises (RFC 9396). `stateOf` binds the step token to the browser.
   */
  async toProvider(page: ScaPage, stateOf: (step: string) => string): Promise<ScaPage | ProviderRedirect> {
    if (page.kind !== 'login') return page;
    const found = await this.steps.current(page.step, 'login');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    const details = authorizationDetailsOf(authorisation, await this.payments.of(authorisation));
    try {
      const url = await this.provider.authorizationUrl({
        state: stateOf(page.step),
        ...this.secretsOf(page.step),
        authorizationDetails: details,
      });
      return { kind: 'provider', url: url.toString() };
    } catch (error) {
      return this.failed(authorisation, page.step, now, error);
    }
  }

  /**
   * The provider sends the browser back. `step` is the step token the state carries, undefined when
   * the state was not made for this browser: then nothing is used up, as for a form posted from
   * another browser, and the PSU is refused.
   */
  async callback(step: string | undefined, state: string, query: URLSearchParams): Promise<ScaPage> {
    if (step === undefined) return refused('login-refused', undefined, 'the state is not one made for this browser');
    const found = await this.steps.current(step, 'login');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    try {
      const result = await this.provider.exchange(query, { state, ...this.secretsOf(step) });
      const acr = result.claims.acr;
      if (this.rule.acrValues.length > 0 && (typeof acr !== 'string' || !this.rule.acrValues.includes(acr)))
        throw new IdentityProviderRefused('the acr is not one of PSU_OIDC_ACR_VALUES');
      const nationalId = result.claims[this.rule.identityClaim];
      if (typeof nationalId !== 'string' || !NATIONAL_ID.test(nationalId))
        throw new IdentityProviderRefused(`the ID token has no ${this.rule.identityClaim} claim of the expected form`);
      if (result.authorizationDetails !== undefined) {
        const sent = authorizationDetailsOf(authorisation, await this.payments.of(authorisation));
        // Dynamic linking: what the PSU authenticated must be what the bank asked them to authorise.
        if (!isDeepStrictEqual(result.authorizationDetails, sent))
          throw new IdentityProviderRefused('the authorization_details returned differ from those sent');
      }
      const customer = await this.login.customerOfIdentity(this.banks.of(authorisation.tppId), nationalId);
      if (customer === undefined) throw new IdentityProviderRefused('the PSU is not a customer of the bank');
      return await this.login.loggedIn(authorisation, step, customer, now);
    } catch (error) {
      return this.failed(authorisation, step, now, error);
    }
  }

  /** The authorisation fails; the PSU is told why, and the way back to the TPP carries the message. */
  private async failed(authorisation: Authorisation, step: string, now: Date, error: unknown): Promise<ScaPage> {
    // Anything else is a fault of the bank's, which the page's error handler answers.
    if (!(error instanceof IdentityProviderUnavailable || error instanceof IdentityProviderRefused)) throw error;
    const kind: ScaMessage =
      error instanceof IdentityProviderUnavailable
        ? 'idp-unavailable'
        : error.cancelled
          ? 'cancelled'
          : 'login-refused';
    if ((await this.steps.advance(authorisation, step, { stage: 'done', status: 'failed' }, now)) === undefined)
      return message('link-invalid', undefined);
    const back = failureRedirect(authorisation, kind);
    // Cancelled at the provider is cancelled on the bank's form: straight back to the TPP.
    if (kind === 'cancelled' && back !== undefined) return { kind: 'redirect', url: back, outcome: 'cancelled' };
    return refused(kind, back, error.reason);
  }

  /** The nonce and PKCE verifier of a log-in: secret, made again from the step token at the callback. */
  private secretsOf(step: string): { nonce: string; codeVerifier: string } {
    const mac = (purpose: string) =>
      createHmac('sha256', this.secretKey).update(`${purpose}\n${step}`).digest('base64url');
    return { nonce: mac('nonce'), codeVerifier: mac('PKCE code verifier') };
  }
}

function refused(kind: ScaMessage, returnUrl: string | undefined, reason: string): ScaPage {
  return { kind: 'message', message: kind, returnUrl, reason };
}
