import { randomUUID } from 'node:crypto';
import type { Customer } from '../../domain/bank.js';
import { PSU_CODE_FAILURES_MAX } from '../../domain/limits.js';
import type { NationalIdKey } from '../../domain/psu.js';
import { AUTH_METHODS, type AuthMethod, MAX_CODE_ATTEMPTS } from '../../domain/sca.js';
import { type TransactionStatus, needsCancellationSca } from '../../domain/transaction-status.js';
import type { BankCore } from '../../core/bank-core.js';
import type { Authorisation } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';
import type { Banks } from '../banks.js';
import type { PsuIdentityProvider } from '../psu-identity.js';
import type { AuthorisationSteps, NextStep } from './authorisation-steps.js';
import type { CodeAttempt, CodeLockout } from './code-lockout.js';
import type { ConsentStep } from './consent-step.js';
import { isNamedPsu } from './named-psu.js';
import { type ScaPage, message } from './sca-page.js';
import type { ScaPayments } from './sca-payments.js';
import { backToTpp, failureRedirect } from './tpp-redirect.js';

/**
 * The PSU opens the scaRedirect link and logs in with their customer number and a one-time code;
 * what follows depends on what they authorise: a session ends here, a consent goes on to choose the
 * accounts, payments to their confirmation page.
 */
export class LoginStep {
  constructor(
    private readonly store: Pick<Store, 'recordSca' | 'findPsuSession'>,
    private readonly core: Pick<BankCore, 'findCustomer' | 'findAgreement'>,
    private readonly banks: Banks,
    private readonly identity: PsuIdentityProvider,
    private readonly nationalIdKey: NationalIdKey,
    private readonly steps: AuthorisationSteps,
    private readonly lockout: CodeLockout,
    private readonly payments: ScaPayments,
    private readonly consent: ConsentStep,
  ) {}

  /** The PSU opens the scaRedirect link: it works once, within its time. */
  async open(token: string): Promise<ScaPage> {
    const found = await this.steps.current(token, 'link');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    const step = await this.steps.advance(authorisation, token, { stage: 'login', status: 'started' }, now);
    if (step === undefined) return message('link-invalid', undefined);
    const expired = await this.payments.expired(authorisation, now);
    if (expired !== undefined) return expired;
    return this.loginPage(authorisation, step, false);
  }

  async login(stepToken: string, customerNumber: string, code: string): Promise<ScaPage> {
    const found = await this.steps.current(stepToken, 'login');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    const typed = customerNumber.trim();
    // Every attempt is counted for the PSU before the code is checked (docs/sca.md, "Wrong codes per PSU").
    const attempt = await this.lockout.reserve(authorisation, typed, now);
    if (attempt.psuAttempts > PSU_CODE_FAILURES_MAX) return this.locked(authorisation, stepToken, attempt, now);
    // The SCA page of a TPP's payment knows that TPP's bank's customers only.
    const customer = await this.core.findCustomer(this.banks.of(authorisation.tppId), { customerNumber: typed });
    if (customer === undefined || !this.identity.verifyCode(customer.customerNumber, code.trim()))
      return this.wrongCode(authorisation, stepToken, attempt, now);
    await this.lockout.release(attempt);
    return this.loggedIn(authorisation, stepToken, customer, now);
  }

  /**
   * The PSU proved who they are (a code here, or the bank's identity provider: oidc-login.ts): a
   * session ends here, a consent goes on to choose the accounts, payments to their confirmation page.
   */
  loggedIn(authorisation: Authorisation, stepToken: string, customer: Customer, now: Date): Promise<ScaPage> {
    if (authorisation.kind === 'session') return this.sessionLogin(authorisation, stepToken, customer, now);
    if (authorisation.kind === 'consent') return this.consent.login(authorisation, stepToken, customer, now);
    return this.paymentLogin(authorisation, stepToken, customer, now);
  }

  /** The bank's customer with this national identity number (what the identity provider says the PSU is), if any. */
  customerOfIdentity(bank: string, nationalId: string): Promise<Customer | undefined> {
    return this.core.findCustomer(bank, { customerNumber: nationalId });
  }

  /**
   * The PSU cancels on the login page, before saying who they are (BankID's "Avbryt"): the
   * authorisation fails and the browser goes back to the TPP with message=cancelled. Nothing else
   * changes: the payment or consent waits as before, and the TPP may start a new authorisation, as
   * after an expired link. No one is identified, so nothing is rejected in anyone's name.
   */
  async cancel(stepToken: string): Promise<ScaPage> {
    const found = await this.steps.current(stepToken, 'login');
    if ('kind' in found) return found;
    const { authorisation, now } = found;
    if ((await this.steps.advance(authorisation, stepToken, { stage: 'done', status: 'failed' }, now)) === undefined)
      return message('link-invalid', undefined);
    const back = failureRedirect(authorisation, 'cancelled');
    return back === undefined ? message('cancelled', undefined) : { kind: 'redirect', url: back, outcome: 'cancelled' };
  }

  /** Logging in is blocked for this PSU: the attempt is not counted, and the authorisation fails. */
  private async locked(
    authorisation: Authorisation,
    stepToken: string,
    attempt: CodeAttempt,
    now: Date,
  ): Promise<ScaPage> {
    await this.lockout.release(attempt);
    if ((await this.steps.advance(authorisation, stepToken, { stage: 'done', status: 'failed' }, now)) === undefined)
      return message('link-invalid', undefined);
    return message('psu-locked', failureRedirect(authorisation, 'psu-locked'));
  }

  /** A wrong code (the attempt stays on record): the PSU locked out, the link's attempts used up, or the form again. */
  private async wrongCode(
    authorisation: Authorisation,
    stepToken: string,
    attempt: CodeAttempt,
    now: Date,
  ): Promise<ScaPage> {
    const attempts = authorisation.attempts + 1;
    if (attempt.psuAttempts >= PSU_CODE_FAILURES_MAX) {
      await this.steps.advance(authorisation, stepToken, { stage: 'done', status: 'failed', attempts }, now);
      return message('psu-locked', failureRedirect(authorisation, 'psu-locked'));
    }
    if (attempts >= MAX_CODE_ATTEMPTS) {
      await this.steps.advance(authorisation, stepToken, { stage: 'done', status: 'failed', attempts }, now);
      return message('too-many-attempts', failureRedirect(authorisation, 'too-many-attempts'));
    }
    const step = await this.steps.advance(
      authorisation,
      stepToken,
      { stage: 'login', status: 'started', attempts },
      now,
    );
    if (step === undefined) return message('link-invalid', undefined);
    return this.loginPage({ ...authorisation, attempts }, step, true);
  }

  /** The SCA of a PSU session: done once the PSU logged in. */
  private async sessionLogin(
    authorisation: Authorisation,
    stepToken: string,
    customer: Customer,
    now: Date,
  ): Promise<ScaPage> {
    const next: NextStep = { stage: 'done', status: 'finalised', customerId: customer.id };
    if ((await this.steps.advance(authorisation, stepToken, next, now)) === undefined)
      return message('link-invalid', undefined);
    const session = await this.store.recordSca(
      authorisation.tppId,
      customer.id,
      now,
      authorisation.tppSessionId,
      randomUUID(),
    );
    return backToTpp(authorisation, session.psuId, undefined, 'session-established');
  }

  /** The PSU the payments name logged in: their confirmation page, with why each cannot be paid by them, if it cannot. */
  private async paymentLogin(
    authorisation: Authorisation,
    stepToken: string,
    customer: Customer,
    now: Date,
  ): Promise<ScaPage> {
    const bank = this.banks.of(authorisation.tppId);
    const payments = await this.payments.of(authorisation);
    if (!(await isNamedPsu(this.store, this.nationalIdKey, authorisation, payments, customer))) {
      await this.steps.advance(
        authorisation,
        stepToken,
        { stage: 'done', status: 'failed', customerId: customer.id },
        now,
      );
      return message('wrong-psu', failureRedirect(authorisation, 'wrong-psu'));
    }
    const next: NextStep = { stage: 'decision', status: 'psuAuthenticated', customerId: customer.id };
    const step = await this.steps.advance(authorisation, stepToken, next, now);
    if (step === undefined) return message('link-invalid', undefined);
    const cancellation = authorisation.kind === 'cancellation';
    const toSign = await Promise.all(
      payments.map(async (payment) => ({
        payment,
        problem: cancellation
          ? cancellationProblem(payment.status)
          : await this.payments.payFromProblem(bank, payment, customer, authorisation.psuCorporateId),
      })),
    );
    const agreement =
      authorisation.psuCorporateId === undefined
        ? undefined
        : await this.core.findAgreement(bank, authorisation.psuCorporateId);
    return {
      kind: 'confirm',
      step,
      tppName: authorisation.tppName,
      signer: customer.name,
      agreementName: agreement?.name,
      payments: toSign,
      cancellation,
    };
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
}

/** Why a payment cannot be cancelled any more (executed, rejected, cancelled since the TPP asked), if it cannot. */
function cancellationProblem(status: TransactionStatus): string | undefined {
  return needsCancellationSca(status) ? undefined : `it is ${status} and can no longer be cancelled`;
}

/** X-PSU-AuthMethod-Preferred: a method the bank has is used; another falls back to the one-time code, said on the page. */
function preferredMethod(preferred: string | undefined): { method: AuthMethod; unavailable: string | undefined } {
  if (preferred === undefined) return { method: 'OTP', unavailable: undefined };
  const method = AUTH_METHODS.find((m) => m === preferred.trim().toUpperCase());
  return method === undefined ? { method: 'OTP', unavailable: preferred } : { method, unavailable: undefined };
}
