import { createHash, randomUUID } from 'node:crypto';
import { randomBase64url } from '../domain/random-text.js';
import { type Customer, payFromProblem } from '../domain/bank.js';
import { PSU_CODE_FAILURE_WINDOW_MINUTES, PSU_CODE_FAILURES_MAX } from '../domain/limits.js';
import { type NationalIdKey, hashNationalId } from '../domain/psu.js';
import { parseHttpAddress } from '../domain/redirect-uri.js';
import { timeOrderedId } from '../domain/time-ordered-id.js';
import {
  AUTH_METHODS,
  type AuthMethod,
  type AuthorisationKind,
  EXPIRED_REASON,
  MAX_CODE_ATTEMPTS,
  PsuAuthenticationRequired,
  SCA_LINK_TTL_MINUTES,
  isSessionValid,
  isSigningWindowOver,
  statusAfterApproval,
} from '../domain/sca.js';
import type { Authorisation, NewAuthorisation, PaymentDecision, PsuSession, ScaPayment } from '../store/sca-records.js';
import type { Store } from '../store/store.js';
import { type Banks, PRODUCTION_BANK } from './banks.js';
import type { PsuIdentityProvider } from './psu-identity.js';
import { type AccountChoice, AisConsentPage } from './ais/ais-consent-page.js';

/** What the TPP's request says about the PSU and where the browser goes afterwards. */
export interface ScaRequestContext {
  tppId: string;
  tppName: string;
  psuId: string | undefined;
  psuNationalIdHash: string | undefined;
  psuCorporateId: string | undefined;
  psuContext: string | undefined;
  /** X-PSU-AuthMethod-Preferred as sent. */
  authMethodPreferred: string | undefined;
  /** TPP-Redirect-Preferred: false asks for biometric authentication on the PSU's phone. */
  redirectPreferred: boolean;
  tppRedirectUri: string | undefined;
  tppSessionId: string | undefined;
}

/** A payment as the confirmation page shows it, with the reason it cannot be approved, if any. */
export interface PaymentToSign {
  payment: ScaPayment;
  problem: string | undefined;
}

/** What the SCA page shows next; the HTTP layer renders it. */
export type ScaPage =
  | {
      kind: 'login';
      step: string;
      tppName: string;
      purpose: AuthorisationKind;
      method: AuthMethod;
      methodUnavailable: string | undefined;
      biometric: boolean;
      failedAttempt: boolean;
      codeHint: { valid: string; invalid: string } | undefined;
      loginDisabled: boolean;
    }
  | {
      kind: 'confirm';
      step: string;
      tppName: string;
      signer: string;
      agreementName: string | undefined;
      payments: PaymentToSign[];
    }
  | {
      kind: 'choose-accounts';
      step: string;
      tppName: string;
      signer: string;
      agreementName: string | undefined;
      accounts: AccountChoice[];
      notShown: number;
      noneChosen: boolean;
    }
  | { kind: 'message'; message: ScaMessage; returnUrl: string | undefined }
  /** Back to the TPP; `outcome` says why (the metrics count it). */
  | { kind: 'redirect'; url: string; outcome: ScaMessage };

/** The outcomes the PSU can be told about; the page words them in the PSU's language. */
export type ScaMessage =
  | 'link-invalid'
  | 'form-invalid'
  | 'link-expired'
  | 'payment-expired'
  | 'wrong-psu'
  | 'too-many-attempts'
  | 'psu-locked'
  | 'approved'
  | 'declined'
  | 'nothing-to-sign'
  | 'session-established'
  | 'consent-given'
  | 'consent-declined'
  | 'consent-wrong-psu'
  | ChangedMeanwhile;

/**
 * Why a payment (or a basket) the PSU approves can no longer be approved: it was cancelled, rejected
 * or expired, or the basket withdrawn, typically while the PSU was on the page. Also the `message`
 * back to the TPP.
 */
export type ChangedMeanwhile = 'basket-cancelled' | 'payment-cancelled' | 'payment-rejected' | 'payment-expired';
/** When several payments of a basket changed, the page and the TPP are told the first of these that happened. */
const CHANGED_ORDER: readonly ChangedMeanwhile[] = [
  'basket-cancelled',
  'payment-cancelled',
  'payment-rejected',
  'payment-expired',
];

/**
 * The SCA flow: a TPP's request starts an authorisation and gets its scaRedirect link; the PSU opens
 * it, logs in, checks what they sign and approves or declines; the browser returns to the TPP with
 * psu-id and tpp-session-id. Each link and form works once and the link expires (docs/sca.md).
 */
export class ScaService {
  /** The consent page's part: the accounts offered and the PSU's choice (services/ais). */
  private readonly consents: AisConsentPage;

  constructor(
    private readonly store: Store,
    private readonly banks: Banks,
    private readonly identity: PsuIdentityProvider,
    private readonly publicUrl: string,
    /** The installation's key for national identity numbers (security/national-id-key.ts). */
    readonly nationalIdKey: NationalIdKey,
  ) {
    this.consents = new AisConsentPage(store, banks);
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
    const token = newToken();
    const authorisation: NewAuthorisation = {
      id: timeOrderedId(),
      tokenHash: hashToken(token),
      kind,
      objectId,
      tppId: context.tppId,
      tppName: context.tppName,
      psuId: context.psuId,
      psuNationalIdHash: context.psuNationalIdHash,
      psuCorporateId: context.psuCorporateId,
      psuContext: context.psuContext,
      authMethod: context.authMethodPreferred,
      redirectPreferred: context.redirectPreferred,
      tppRedirectUri: context.tppRedirectUri,
      tppSessionId: context.tppSessionId,
      expiresAt: new Date(now.getTime() + SCA_LINK_TTL_MINUTES * 60_000),
      createdAt: now,
    };
    return { link: `${this.publicUrl}/sca/${token}`, authorisation };
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
  async open(token: string): Promise<ScaPage> {
    const found = await this.current(token, 'link');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    const step = newToken();
    if (
      !(await this.store.advanceAuthorisation(
        authorisation.id,
        hashToken(token),
        { tokenHash: hashToken(step), stage: 'login', status: 'started' },
        now,
      ))
    ) {
      return message('link-invalid', undefined);
    }
    const expired = await this.expiredPayments(authorisation, now);
    if (expired !== undefined) return expired;
    return this.loginPage(authorisation, step, false);
  }

  async login(stepToken: string, customerNumber: string, code: string): Promise<ScaPage> {
    const found = await this.current(stepToken, 'login');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    const bank = this.banks.of(authorisation.tppId);
    const typed = customerNumber.trim();
    // Every attempt is counted for the PSU before the code is checked (docs/sca.md, "Wrong codes per PSU").
    const attemptId = randomUUID();
    const psuAttempts = await this.store.reserveCodeAttempt(
      attemptId,
      await this.lockoutKeys(authorisation, typed),
      now,
      new Date(now.getTime() - PSU_CODE_FAILURE_WINDOW_MINUTES * 60_000),
    );
    if (psuAttempts > PSU_CODE_FAILURES_MAX) {
      await this.store.releaseCodeAttempt(attemptId);
      if (
        !(await this.store.advanceAuthorisation(
          authorisation.id,
          hashToken(stepToken),
          { tokenHash: hashToken(newToken()), stage: 'done', status: 'failed' },
          now,
        ))
      ) {
        return message('link-invalid', undefined);
      }
      return message('psu-locked', failureRedirect(authorisation, 'psu-locked'));
    }
    // The SCA page of a TPP's payment knows that TPP's bank's customers only.
    const customer = await this.store.findCustomer(bank, { customerNumber: typed });
    if (customer === undefined || !this.identity.verifyCode(customer.customerNumber, code.trim())) {
      // The attempt stays on record: it was a wrong code.
      const attempts = authorisation.attempts + 1;
      const step = newToken();
      if (psuAttempts >= PSU_CODE_FAILURES_MAX) {
        await this.store.advanceAuthorisation(
          authorisation.id,
          hashToken(stepToken),
          { tokenHash: hashToken(step), stage: 'done', status: 'failed', attempts },
          now,
        );
        return message('psu-locked', failureRedirect(authorisation, 'psu-locked'));
      }
      if (attempts >= MAX_CODE_ATTEMPTS) {
        await this.store.advanceAuthorisation(
          authorisation.id,
          hashToken(stepToken),
          { tokenHash: hashToken(step), stage: 'done', status: 'failed', attempts },
          now,
        );
        return message('too-many-attempts', failureRedirect(authorisation, 'too-many-attempts'));
      }
      if (
        !(await this.store.advanceAuthorisation(
          authorisation.id,
          hashToken(stepToken),
          { tokenHash: hashToken(step), stage: 'login', status: 'started', attempts },
          now,
        ))
      ) {
        return message('link-invalid', undefined);
      }
      return this.loginPage({ ...authorisation, attempts }, step, true);
    }
    await this.store.releaseCodeAttempt(attemptId);

    if (authorisation.kind === 'session') {
      if (
        !(await this.store.advanceAuthorisation(
          authorisation.id,
          hashToken(stepToken),
          { tokenHash: hashToken(newToken()), stage: 'done', status: 'finalised', customerId: customer.id },
          now,
        ))
      ) {
        return message('link-invalid', undefined);
      }
      const session = await this.store.recordSca(
        authorisation.tppId,
        customer.id,
        now,
        authorisation.tppSessionId,
        randomUUID(),
      );
      return this.finish(authorisation, session.psuId, undefined, 'session-established');
    }

    if (authorisation.kind === 'consent') return this.consentLogin(authorisation, stepToken, customer, now);

    const payments = await this.paymentsOf(authorisation);
    if (!(await this.isNamedPsu(authorisation, payments, customer))) {
      await this.store.advanceAuthorisation(
        authorisation.id,
        hashToken(stepToken),
        { tokenHash: hashToken(newToken()), stage: 'done', status: 'failed', customerId: customer.id },
        now,
      );
      return message('wrong-psu', failureRedirect(authorisation, 'wrong-psu'));
    }
    const step = newToken();
    if (
      !(await this.store.advanceAuthorisation(
        authorisation.id,
        hashToken(stepToken),
        { tokenHash: hashToken(step), stage: 'decision', status: 'psuAuthenticated', customerId: customer.id },
        now,
      ))
    ) {
      return message('link-invalid', undefined);
    }
    const toSign = await Promise.all(
      payments.map(async (payment) => ({
        payment,
        problem: await this.payFromProblem(bank, payment, customer, authorisation.psuCorporateId),
      })),
    );
    const agreement =
      authorisation.psuCorporateId === undefined
        ? undefined
        : await this.store.findAgreement(bank, authorisation.psuCorporateId);
    return {
      kind: 'confirm',
      step,
      tppName: authorisation.tppName,
      signer: customer.name,
      agreementName: agreement?.name,
      payments: toSign,
    };
  }

  /**
   * The PSU approves or declines. Payments that cannot be signed by this PSU are rejected either way;
   * a consent shares the accounts ticked (`accounts`, the ids the page offered).
   */
  async decide(stepToken: string, approve: boolean, accounts: readonly string[] = []): Promise<ScaPage> {
    const found = await this.current(stepToken, 'decision');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    const customer =
      authorisation.customerId === undefined
        ? undefined
        : await this.store.findCustomer(this.banks.of(authorisation.tppId), { id: authorisation.customerId });
    if (customer === undefined) return message('link-invalid', undefined);
    if (authorisation.kind === 'consent')
      return this.consentDecision(authorisation, stepToken, customer, approve, accounts, now);
    if (
      !(await this.store.advanceAuthorisation(
        authorisation.id,
        hashToken(stepToken),
        { tokenHash: hashToken(newToken()), stage: 'done', status: approve ? 'finalised' : 'failed' },
        now,
      ))
    ) {
      return message('link-invalid', undefined);
    }
    const payments = await this.paymentsOf(authorisation);
    const decisions: PaymentDecision[] = [];
    // What changed while the PSU was on the page: a payment cancelled, rejected or expired, a basket withdrawn.
    const changed: ChangedMeanwhile[] =
      payments.length === 0 ? [authorisation.kind === 'basket' ? 'basket-cancelled' : 'payment-cancelled'] : [];
    const approvals = new Set<string>();
    for (const payment of payments) {
      if (payment.status !== 'RCVD') {
        // Approved already (on its own link) is what the PSU wants; cancelled or rejected is not.
        const why = changedMeanwhile(payment, now);
        if (why !== undefined) changed.push(why);
        continue;
      }
      const problem = await this.payFromProblem(
        this.banks.of(authorisation.tppId),
        payment,
        customer,
        authorisation.psuCorporateId,
      );
      if (isSigningWindowOver(payment.createdAt, now)) {
        decisions.push({ paymentId: payment.id, status: 'RJCT', reason: EXPIRED_REASON });
        changed.push('payment-expired');
      } else if (!approve) decisions.push({ paymentId: payment.id, status: 'RJCT', reason: 'declined by the PSU' });
      else if (problem !== undefined)
        decisions.push({ paymentId: payment.id, status: 'RJCT', reason: `not approved: ${problem}` });
      else {
        decisions.push({
          paymentId: payment.id,
          status: statusAfterApproval(payment.requestedExecutionDate, now),
          reason: undefined,
        });
        approvals.add(payment.id);
      }
    }
    // decidePayments changes only payments still RCVD: one cancelled since it was read above is left as it is.
    const decided = new Set(await this.store.decidePayments(decisions, customer.id, now));
    const lost = [...approvals].filter((id) => !decided.has(id));
    if (lost.length > 0) {
      for (const payment of await this.store.findPaymentsForSca(authorisation.tppId, lost)) {
        const why = changedMeanwhile(payment, now);
        if (why !== undefined) changed.push(why);
      }
    }
    const approved = approvals.size - lost.length;
    const session = await this.store.recordSca(
      authorisation.tppId,
      customer.id,
      now,
      authorisation.tppSessionId,
      randomUUID(),
    );
    if (!approve) return this.finish(authorisation, session.psuId, 'declined', 'declined');
    const first = CHANGED_ORDER.find((reason) => changed.includes(reason));
    if (first !== undefined) return message(first, returnUrl(authorisation, session.psuId, first));
    return this.finish(
      authorisation,
      session.psuId,
      approved === 0 ? 'nothing-to-sign' : undefined,
      approved === 0 ? 'nothing-to-sign' : 'approved',
    );
  }

  /** The authorisation of a token at its stage, with the time by its bank's clock (read once per page). */
  private async current(
    token: string,
    stage: Authorisation['stage'],
  ): Promise<{ authorisation: Authorisation; now: Date } | ScaPage> {
    const authorisation = await this.store.findAuthorisation(hashToken(token));
    if (authorisation === undefined || authorisation.stage !== stage) return message('link-invalid', undefined);
    const now = await this.banks.now(authorisation.tppId);
    if (authorisation.expiresAt.getTime() < now.getTime()) {
      await this.store.advanceAuthorisation(
        authorisation.id,
        hashToken(token),
        { tokenHash: hashToken(newToken()), stage: 'done', status: 'failed' },
        now,
      );
      return message('link-expired', failureRedirect(authorisation, 'link-expired'));
    }
    return { authorisation, now };
  }

  /** Payments whose signing window has passed are rejected when their link is opened; nothing to sign is no page to show. */
  private async expiredPayments(authorisation: Authorisation, now: Date): Promise<ScaPage | undefined> {
    if (authorisation.kind === 'session' || authorisation.kind === 'consent') return undefined;
    const payments = await this.paymentsOf(authorisation);
    // A basket deleted since its link was issued has nothing left to sign.
    if (payments.length === 0) return message('link-invalid', undefined);
    const expired = payments.filter((p) => p.status === 'RCVD' && isSigningWindowOver(p.createdAt, now));
    if (expired.length === 0 || expired.length < payments.length) return undefined;
    await this.store.decidePayments(
      expired.map((p) => ({ paymentId: p.id, status: 'RJCT', reason: EXPIRED_REASON })),
      undefined,
      now,
    );
    return message('payment-expired', failureRedirect(authorisation, 'payment-expired'));
  }

  /** A consent's PSU logged in: the one the TPP named (if it named one) chooses the accounts to share. */
  private async consentLogin(
    authorisation: Authorisation,
    stepToken: string,
    customer: Customer,
    now: Date,
  ): Promise<ScaPage> {
    if (!(await this.isNamedPsu(authorisation, [], customer))) {
      await this.store.advanceAuthorisation(
        authorisation.id,
        hashToken(stepToken),
        { tokenHash: hashToken(newToken()), stage: 'done', status: 'failed', customerId: customer.id },
        now,
      );
      await this.consents.refuse(authorisation, now);
      return message('consent-wrong-psu', failureRedirect(authorisation, 'wrong-psu'));
    }
    const step = newToken();
    if (
      !(await this.store.advanceAuthorisation(
        authorisation.id,
        hashToken(stepToken),
        { tokenHash: hashToken(step), stage: 'decision', status: 'psuAuthenticated', customerId: customer.id },
        now,
      ))
    ) {
      return message('link-invalid', undefined);
    }
    return this.choosePage(authorisation, step, customer, false);
  }

  private async choosePage(
    authorisation: Authorisation,
    step: string,
    customer: Customer,
    noneChosen: boolean,
  ): Promise<ScaPage> {
    const choices = await this.consents.choices(authorisation, customer);
    // Asked again after ticking none: the boxes stay as the PSU left them.
    const accounts = noneChosen ? choices.accounts.map((choice) => ({ ...choice, checked: false })) : choices.accounts;
    return {
      kind: 'choose-accounts',
      step,
      tppName: authorisation.tppName,
      signer: customer.name,
      agreementName: choices.agreementName,
      accounts,
      notShown: choices.notShown,
      noneChosen,
    };
  }

  /**
   * The PSU shares the accounts ticked, or declines. Approving with none ticked shares nothing and
   * asks again on a new form; either way the browser returns with psu-id and tpp-session-id, the
   * session the TPP's reads name the consent by.
   */
  private async consentDecision(
    authorisation: Authorisation,
    stepToken: string,
    customer: Customer,
    approve: boolean,
    accounts: readonly string[],
    now: Date,
  ): Promise<ScaPage> {
    if (approve) {
      const outcome = await this.consents.give(authorisation, customer, accounts, now);
      if (outcome === 'none-chosen') {
        const step = newToken();
        if (
          !(await this.store.advanceAuthorisation(
            authorisation.id,
            hashToken(stepToken),
            { tokenHash: hashToken(step), stage: 'decision', status: 'psuAuthenticated' },
            now,
          ))
        ) {
          return message('link-invalid', undefined);
        }
        return this.choosePage(authorisation, step, customer, true);
      }
      if (
        outcome === 'decided' ||
        !(await this.store.advanceAuthorisation(
          authorisation.id,
          hashToken(stepToken),
          { tokenHash: hashToken(newToken()), stage: 'done', status: 'finalised' },
          now,
        ))
      ) {
        return message('link-invalid', undefined);
      }
    } else {
      if (
        !(await this.store.advanceAuthorisation(
          authorisation.id,
          hashToken(stepToken),
          { tokenHash: hashToken(newToken()), stage: 'done', status: 'failed' },
          now,
        ))
      ) {
        return message('link-invalid', undefined);
      }
      await this.consents.refuse(authorisation, now);
    }
    const session = await this.store.recordSca(
      authorisation.tppId,
      customer.id,
      now,
      authorisation.tppSessionId,
      randomUUID(),
    );
    return approve
      ? this.finish(authorisation, session.psuId, undefined, 'consent-given')
      : this.finish(authorisation, session.psuId, 'declined', 'consent-declined');
  }

  private loginPage(authorisation: Authorisation, step: string, failedAttempt: boolean): ScaPage {
    const method = preferredMethod(authorisation.authMethod);
    return {
      kind: 'login',
      step,
      tppName: authorisation.tppName,
      purpose: authorisation.kind,
      method: method.method,
      methodUnavailable: method.unavailable,
      biometric: !authorisation.redirectPreferred,
      failedAttempt,
      codeHint: this.identity.hint,
      loginDisabled: this.identity.hint === undefined,
    };
  }

  private async paymentsOf(authorisation: Authorisation): Promise<ScaPayment[]> {
    if (authorisation.objectId === undefined || authorisation.kind === 'consent') return [];
    if (authorisation.kind === 'payment')
      return this.store.findPaymentsForSca(authorisation.tppId, [authorisation.objectId]);
    const basket = await this.store.findBasket(authorisation.tppId, authorisation.objectId);
    return basket === undefined ? [] : this.store.findPaymentsForSca(authorisation.tppId, basket.paymentIds);
  }

  /** spec: the PSU who signs must be the PSU named at initiation (by PSU-ID or national identity number). */
  private async isNamedPsu(authorisation: Authorisation, payments: ScaPayment[], customer: Customer): Promise<boolean> {
    const named = [
      { psuId: authorisation.psuId, hash: authorisation.psuNationalIdHash },
      ...payments.map((p) => ({ psuId: p.psuId, hash: p.psuNationalIdHash })),
    ];
    for (const { psuId, hash } of named) {
      if (psuId !== undefined) {
        const session = await this.store.findPsuSession(authorisation.tppId, psuId);
        if (session === undefined || session.customerId !== customer.id) return false;
      } else if (hash !== undefined && hash !== hashNationalId(this.nationalIdKey, customer.customerNumber)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The keys a one-time code attempt counts under: the customer number typed and every PSU the
   * authorisation and its payments name, each as the keyed hash of its national identity number
   * (the sandbox's customer numbers are national identity numbers), so no number is stored in clear.
   */
  private async lockoutKeys(authorisation: Authorisation, typed: string): Promise<string[]> {
    const keys = new Set<string>();
    if (typed !== '') keys.add(hashNationalId(this.nationalIdKey, typed));
    const payments =
      authorisation.kind === 'session' || authorisation.kind === 'consent' ? [] : await this.paymentsOf(authorisation);
    for (const { psuId, hash } of [
      { psuId: authorisation.psuId, hash: authorisation.psuNationalIdHash },
      ...payments.map((p) => ({ psuId: p.psuId, hash: p.psuNationalIdHash })),
    ]) {
      if (hash !== undefined) keys.add(hash);
      if (psuId === undefined) continue;
      const session = await this.store.findPsuSession(authorisation.tppId, psuId);
      const customer =
        session === undefined
          ? undefined
          : await this.store.findCustomer(this.banks.of(authorisation.tppId), { id: session.customerId });
      if (customer !== undefined) keys.add(hashNationalId(this.nationalIdKey, customer.customerNumber));
    }
    // In the sandbox a customer number is a PSU of one TPP's bank, counted by that bank's clock: another
    // TPP's wrong codes for the same number must not lock this one out. Production's keys are as they were.
    const bank = this.banks.of(authorisation.tppId);
    return bank === PRODUCTION_BANK ? [...keys] : [...keys].map((key) => `bank:${bank}:${key}`);
  }

  private async payFromProblem(
    bank: string,
    payment: ScaPayment,
    signer: Customer,
    corporateId: string | undefined,
  ): Promise<string | undefined> {
    const account = await this.store.findAccount(bank, { bban: payment.debtorBban, iban: payment.debtorIban });
    const agreementId = payment.psuCorporateId ?? corporateId;
    if (agreementId === undefined || account === undefined) return payFromProblem(signer, account, undefined);
    const agreement = await this.store.findAgreement(bank, agreementId);
    const engagement =
      agreement === undefined ? undefined : await this.store.findEngagement(bank, agreement.id, signer.id, account.id);
    return payFromProblem(signer, account, { agreement, engagement });
  }

  /** Back to the TPP: psu-id and tpp-session-id added to its redirect URI, keeping its own query (state). */
  private finish(authorisation: Authorisation, psuId: string, failure: string | undefined, done: ScaMessage): ScaPage {
    // An address the parser refuses (stored before creates checked it) leaves the PSU on our page, not on a 500.
    const url = authorisation.tppRedirectUri === undefined ? undefined : parseHttpAddress(authorisation.tppRedirectUri);
    if (url === undefined) return message(done, undefined);
    url.searchParams.set('psu-id', psuId);
    url.searchParams.set('tpp-session-id', authorisation.tppSessionId ?? '');
    if (failure !== undefined) url.searchParams.set('message', failure);
    return { kind: 'redirect', url: url.toString(), outcome: done };
  }
}

function message(kind: ScaMessage, returnUrl: string | undefined): ScaPage {
  return { kind: 'message', message: kind, returnUrl };
}

/** Why a payment no longer waiting for SCA cannot be approved; undefined when it was approved already (or is still RCVD). */
function changedMeanwhile(payment: ScaPayment, now: Date): ChangedMeanwhile | undefined {
  if (payment.status === 'CANC') return 'payment-cancelled';
  if (payment.status === 'RJCT')
    return isSigningWindowOver(payment.createdAt, now) ? 'payment-expired' : 'payment-rejected';
  return undefined;
}

/** Back to the TPP after the PSU authenticated but approved nothing: psu-id, tpp-session-id and a message saying why. */
function returnUrl(authorisation: Authorisation, psuId: string, reason: string): string | undefined {
  const url = authorisation.tppRedirectUri === undefined ? undefined : parseHttpAddress(authorisation.tppRedirectUri);
  if (url === undefined) return undefined;
  url.searchParams.set('psu-id', psuId);
  url.searchParams.set('tpp-session-id', authorisation.tppSessionId ?? '');
  url.searchParams.set('message', reason);
  return url.toString();
}

/** Where the browser may return after a failure: the TPP's address with a message and no psu-id. */
function failureRedirect(authorisation: Authorisation, reason: string): string | undefined {
  const url = authorisation.tppRedirectUri === undefined ? undefined : parseHttpAddress(authorisation.tppRedirectUri);
  if (url === undefined) return undefined;
  if (authorisation.tppSessionId !== undefined) url.searchParams.set('tpp-session-id', authorisation.tppSessionId);
  url.searchParams.set('message', reason);
  return url.toString();
}

/** X-PSU-AuthMethod-Preferred: a method the bank has is used; another falls back to the one-time code, said on the page. */
function preferredMethod(preferred: string | undefined): { method: AuthMethod; unavailable: string | undefined } {
  if (preferred === undefined) return { method: 'OTP', unavailable: undefined };
  const method = AUTH_METHODS.find((m) => m === preferred.trim().toUpperCase());
  return method === undefined ? { method: 'OTP', unavailable: preferred } : { method, unavailable: undefined };
}

function newToken(): string {
  return randomBase64url(24);
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
