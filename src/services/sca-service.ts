import type { ScaStore } from '../store/sca-store.js';
import type { PaymentStore } from '../store/payment-store.js';
import type { BasketStore } from '../store/basket-store.js';
import type { ConsentStore } from '../store/consent-store.js';
import type { HandoverStore } from '../store/handover-store.js';
import type { BankCore } from '../core/bank-core.js';
import type { NationalIdKey } from '../domain/psu.js';
import { type AuthorisationKind, PsuAuthenticationRequired, isSessionValid } from '../domain/sca.js';
import type { NewAuthorisation, PsuSession } from '../store/sca-records.js';
import type { Banks } from './banks.js';
import type { InstantExecution } from './instant-execution.js';
import type { PsuIdentityProvider } from './psu-identity.js';
import { AuthorisationSteps } from './sca/authorisation-steps.js';
import { CodeLockout } from './sca/code-lockout.js';
import type { ConsentPage } from './sca/consent-page.js';
import { ConsentStep } from './sca/consent-step.js';
import { LoginStep } from './sca/login-step.js';
import { CancellationDecisionStep } from './sca/cancellation-decision-step.js';
import { PaymentDecisionStep } from './sca/payment-decision-step.js';
import { type ScaDecision, type ScaPage, message } from './sca/sca-page.js';
import { type ScaRequestContext, newAuthorisation } from './sca/sca-links.js';
import { ScaPayments } from './sca/sca-payments.js';
import type { IdentityProviderClient } from './sca/identity-provider-client.js';
import { type OidcClaimsRule, OidcLogin, type ProviderRedirect } from './sca/oidc-login.js';
import { PaymentCancellation } from './core-handover/payment-cancellation.js';

export type { ScaRequestContext } from './sca/sca-links.js';
export type { ProviderRedirect } from './sca/oidc-login.js';

/** The bank's identity provider, where PSUs log in instead of on the bank's form, and what its ID token must say. */
export interface PsuLoginProvider {
  client: IdentityProviderClient;
  rule: OidcClaimsRule;
}
export type { ChangedMeanwhile, PaymentToSign, ScaDecision, ScaMessage, ScaPage } from './sca/sca-page.js';

/**
 * The SCA flow: a TPP's request starts an authorisation and gets its scaRedirect link; the PSU opens
 * it, logs in, checks what they sign and approves or declines; the browser returns to the TPP with
 * psu-id and tpp-session-id. Each link and form works once and the link expires (docs/sca.md). The
 * steps are in services/sca/, one file each; this is the flow's one face to the routes and services.
 */
export class ScaService {
  private readonly steps: AuthorisationSteps;
  private readonly loginStep: LoginStep;
  private readonly consentStep: ConsentStep;
  private readonly paymentDecision: PaymentDecisionStep;
  private readonly cancellationDecision: CancellationDecisionStep;
  private readonly oidcLogin: OidcLogin | undefined;

  constructor(
    private readonly store: ScaStore & PaymentStore & BasketStore & ConsentStore & HandoverStore,
    /** The bank's core: who the PSU is, and what they may pay from (docs/core.md). */
    private readonly core: BankCore,
    private readonly banks: Banks,
    identity: PsuIdentityProvider,
    private readonly publicUrl: string,
    /** The installation's key for national identity numbers (security/national-id-key.ts). */
    readonly nationalIdKey: NationalIdKey,
    /** The consent page's part: the accounts offered and the PSU's choice (services/ais). */
    consentPage: ConsentPage,
    /** Executes approved instant payments (Straks) within the PSU's decision; none with a bank's own core, which executes them. */
    instant?: InstantExecution,
    /** Told when payments were authorised for a bank's own core: their hand-over starts at once (docs/core.md). */
    handOver?: { nudge(): void },
    /** The bank's identity provider (PSU_OIDC_…); without it the PSU logs in on the bank's form. */
    provider?: PsuLoginProvider,
  ) {
    this.steps = new AuthorisationSteps(store, banks);
    const payments = new ScaPayments(store, core);
    const lockout = new CodeLockout(store, core, banks, nationalIdKey, payments);
    this.consentStep = new ConsentStep(store, nationalIdKey, this.steps, consentPage);
    this.loginStep = new LoginStep(
      store,
      core,
      banks,
      identity,
      nationalIdKey,
      this.steps,
      lockout,
      payments,
      this.consentStep,
    );
    this.paymentDecision = new PaymentDecisionStep(store, banks, this.steps, payments, instant, handOver);
    this.cancellationDecision = new CancellationDecisionStep(
      store,
      this.steps,
      new PaymentCancellation(store, core),
      (tppId) => banks.of(tppId),
    );
    this.oidcLogin =
      provider === undefined
        ? undefined
        : new OidcLogin(provider.client, provider.rule, nationalIdKey, this.steps, payments, this.loginStep, banks);
  }

  /** Starts an authorisation and returns the scaRedirect address for the PSU's browser. */
  async start(kind: AuthorisationKind, objectId: string | undefined, context: ScaRequestContext): Promise<string> {
    const { link, authorisation } = this.prepare(kind, objectId, context, await this.banks.now(context.tppId));
    await this.store.createAuthorisation(authorisation);
    return link;
  }

  /**
   * An authorisation and its link, to be stored by the caller in the transaction that creates what it
   * authorises, so a payment answered with a link always has that link's authorisation.
   */
  prepare(
    kind: AuthorisationKind,
    objectId: string | undefined,
    context: ScaRequestContext,
    now: Date,
  ): { link: string; authorisation: NewAuthorisation } {
    return newAuthorisation(kind, objectId, context, now, this.publicUrl);
  }

  /**
   * The PSU's session with this TPP, when the request names one that is valid; otherwise a 401
   * challenge whose SCA establishes (or renews) it (spec, Authentication 9 and 10).
   */
  async requireSession(context: ScaRequestContext & { psuId: string }): Promise<PsuSession> {
    const session = await this.store.findPsuSession(context.tppId, context.psuId);
    if (session !== undefined && isSessionValid(session.lastScaAt, await this.banks.now(context.tppId))) return session;
    const reason =
      session === undefined
        ? `PSU-ID ${context.psuId} is not known to the bank for this TPP`
        : "the PSU's last SCA with this TPP is older than 180 days";
    throw new PsuAuthenticationRequired(await this.start('session', undefined, context), reason);
  }

  /** The PSU opens the scaRedirect link: it works once, within its time. */
  open(token: string): Promise<ScaPage> {
    return this.loginStep.open(token);
  }

  /** Whether the PSU logs in at the bank's identity provider rather than on the bank's form. */
  get logsInAtProvider(): boolean {
    return this.oidcLogin !== undefined;
  }

  /**
   * The PSU opens the scaRedirect link, and (it being valid) their browser goes to the identity
   * provider; `stateOf` binds the login step's token to the browser.
   */
  async openAtProvider(token: string, stateOf: (step: string) => string): Promise<ScaPage | ProviderRedirect> {
    const page = await this.loginStep.open(token);
    return this.oidcLogin === undefined ? page : this.oidcLogin.toProvider(page, stateOf);
  }

  /** The identity provider sends the browser back with the code (or an error) and the state. */
  providerCallback(step: string | undefined, state: string, query: URLSearchParams): Promise<ScaPage> {
    if (this.oidcLogin === undefined) return Promise.resolve(message('link-invalid', undefined));
    return this.oidcLogin.callback(step, state, query);
  }

  login(stepToken: string, customerNumber: string, code: string): Promise<ScaPage> {
    return this.loginStep.login(stepToken, customerNumber, code);
  }

  /** The PSU cancels on the login page: the authorisation fails, back to the TPP with message=cancelled. */
  cancelLogin(stepToken: string): Promise<ScaPage> {
    return this.loginStep.cancel(stepToken);
  }

  /**
   * The PSU approves or declines. Payments that cannot be signed by this PSU are rejected either way;
   * a consent shares the accounts ticked (`accounts`, the ids the page offered), or on a renewal the
   * PSU withdraws the consent in force (a payment's page has no withdraw: it declines).
   */
  async decide(stepToken: string, decision: ScaDecision, accounts: readonly string[] = []): Promise<ScaPage> {
    const approve = decision === 'approve';
    const found = await this.steps.current(stepToken, 'decision');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    const customer =
      authorisation.customerId === undefined
        ? undefined
        : await this.core.findCustomer(this.banks.of(authorisation.tppId), { id: authorisation.customerId });
    if (customer === undefined) return message('link-invalid', undefined);
    if (authorisation.kind === 'consent')
      return this.consentStep.decide(authorisation, stepToken, customer, decision, accounts, now);
    if (authorisation.kind === 'cancellation')
      return this.cancellationDecision.decide(authorisation, stepToken, customer, approve, now);
    return this.paymentDecision.decide(authorisation, stepToken, customer, approve, now);
  }
}
