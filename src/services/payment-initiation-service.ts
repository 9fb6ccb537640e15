import type { PaymentStore } from '../store/payment-store.js';
import type { BindingStore } from '../store/binding-store.js';
import type { BasketStore } from '../store/basket-store.js';
import type { ScaStore } from '../store/sca-store.js';
import { acceptedFixes } from '../domain/accept-fix.js';
import { ApiError, type Problem, type TppMessage, clipText } from '../domain/api-error.js';
import { osloDate } from '../domain/clock.js';
import type { Language } from '../domain/language.js';
import { LOGICAL_DUPLICATE_WINDOW_HOURS } from '../domain/limits.js';
import { formatMoney } from '../domain/money.js';
import { type PaymentProduct, type PaymentService, productProblem } from '../domain/payment-product.js';
import type { ProductValidation } from '../domain/payments/cross-border-payment.js';
import { type ProductRules, productRules } from '../domain/payments/product-rules.js';
import { type NewPayment, newPaymentId } from '../domain/payments/payment.js';
import { type PsuIdentification, identifyPsu } from '../domain/psu.js';
import { PSU_MESSAGES } from '../domain/psu-messages.js';
import type { ReferenceRates } from '../domain/reference-rates.js';
import { type TransactionStatus, needsCancellationSca } from '../domain/transaction-status.js';
import type { EntryOutcome } from '../store/ledger-records.js';
import type { LogicalDuplicate, StoredPayment } from '../store/store.js';
import type { Banks } from './banks.js';
import { EXPIRED_REASON, effectiveStatus } from '../domain/sca.js';
import { type Answer, type Created, type RecordAnswer, idempotentCreate } from './idempotent-create.js';
import { AuthorisationService } from './authorisation-service.js';
import { PaymentAuthorisations } from './payment-authorisations.js';
import { paymentAnswerLinks, paymentLinks } from './payment-links.js';
import type { PaymentReader } from './payment-reader.js';
import type { RequestContext } from './request-context.js';
import type { ScaService } from './sca-service.js';
import type { BankCore } from '../core/bank-core.js';
import type { Customer } from '../domain/bank.js';
import { type HoldingsCore, debtorAccountProblem } from './debtor-account.js';

export { type Link, type PaymentLinks, paymentAnswerLinks, paymentLinks } from './payment-links.js';

/** What a payment create asks for, besides the facts every signed request has (RequestContext). */
export interface PaymentOrder {
  service: PaymentService;
  product: PaymentProduct;
  body: unknown;
  allowLogicalDuplicate: boolean;
  /** Problems the request schema found; reported together with the product's own. */
  schemaProblems: Problem[];
}

/** A create's request, judged: the payment the product's rules made of it, its PSU, and the changes in force. */
interface JudgedOrder {
  validated: NonNullable<ProductValidation['payment']>;
  psu: PsuIdentification;
  fixes: ReturnType<typeof acceptedFixes>;
  rules: ProductRules;
}

/** Use cases of payment initiation: create (idempotent by X-Request-ID), read, read status, cancel. */
export class PaymentInitiationService implements PaymentReader {
  /** The payment's authorisations and its cancellation's (Berlin Group's sub-resources). */
  readonly authorisations: PaymentAuthorisations;

  constructor(
    private readonly store: PaymentStore & BindingStore & BasketStore & ScaStore,
    /** The bank's core: whether the PSU holds the debtor account. */
    private readonly core: HoldingsCore & Pick<BankCore, 'findCustomer'>,
    private readonly banks: Banks,
    private readonly rates: ReferenceRates,
    private readonly sca: ScaService,
  ) {
    this.authorisations = new PaymentAuthorisations(this, store, new AuthorisationService(store, banks, sca));
  }

  initiate(request: RequestContext, order: PaymentOrder): Promise<Answer> {
    return idempotentCreate(this.store, `POST /v1/${order.service}/${order.product}`, request, (record) =>
      this.create(request, order, record),
    );
  }

  private async create(request: RequestContext, order: PaymentOrder, record: RecordAnswer): Promise<Created> {
    // The TPP's bank's business clock: its own in the sandbox, the wall clock in production.
    const now = await this.banks.now(request.tpp.id);
    const { validated, psu, fixes, rules } = this.judge(request, order, osloDate(now));
    // A PSU named by PSU-ID must have a valid session with this TPP, or is sent to SCA first (401).
    const session =
      psu.psuId === undefined ? undefined : await this.sca.requireSession({ ...request.sca, psuId: psu.psuId });
    // The sandbox refuses such a payment at its SCA, as it always has (docs/decisions/0294).
    if (this.banks.mode === 'production')
      await this.requireDebtorAccount(request, validated.debtor, session?.customerId);

    const id = newPaymentId();
    const warnings: TppMessage[] = [...fixes.warnings, ...validated.warnings];
    // spec, Authentication 11: PSU-Context must be set for single-SCA payment initiation. Without it
    // the payment gets no scaRedirect of its own: it is signed in a signing basket, or the TPP starts
    // its authorisation (_links.startAuthorisation).
    const signing = psu.context === undefined ? undefined : this.sca.prepare('payment', id, request.sca, now);
    if (signing === undefined) warnings.push(PSU_CONTEXT_MISSING);
    const answer: Answer = {
      status: 201,
      body: {
        paymentId: id,
        transactionStatus: 'RCVD' as const,
        transactionFees: formatMoney(validated.fees.total),
        transactionFeeIndicator: rules.feeIndicator === 'priced' || validated.fees.charged,
        ...(warnings.length > 0 ? { tppMessages: warnings } : {}),
        psuMessage: psuMessage(rules, validated, request.language),
        _links: paymentAnswerLinks(order.service, order.product, id, 'RCVD', signing?.link),
      },
    };
    const payment: NewPayment = {
      ...validated,
      id,
      tppId: request.tpp.id,
      service: order.service,
      product: order.product,
      status: 'RCVD',
      psu,
      body: order.body,
      acceptFixes: [...fixes.active],
      tppRedirectUri: request.sca.tppRedirectUri ?? '',
      tppSessionId: request.sca.tppSessionId ?? '',
      createdAt: now,
    };
    const duplicatesSince = order.allowLogicalDuplicate
      ? null
      : new Date(now.getTime() - LOGICAL_DUPLICATE_WINDOW_HOURS * 3_600_000);
    const result = await this.store.createPayment(payment, record(answer, { kind: 'payment', id }), {
      duplicatesSince,
      authorisation: signing?.authorisation,
      bank: request.bank,
    });
    if (result.outcome === 'replayed') return { replayed: result.request };
    if (result.outcome === 'duplicate') throw duplicateRefusal(result.duplicates);
    return { created: answer };
  }

  /**
   * Issue 38: a payment from an account the bank's core does not hold for the PSU is refused at once
   * (400 PAYMENT_FAILED), never answered 201 to fail at the SCA. The PSU is the customer of the
   * session PSU-ID names, else the one whose national identity number X-PSU-IDENTITY gives. Whether
   * the number is the bank's customer at all, or the account exists, is not told apart: a TPP learns
   * only that this PSU cannot pay from this account here.
   */
  private async requireDebtorAccount(
    request: RequestContext,
    debtor: { bban: string | undefined; iban: string | undefined },
    sessionCustomerId: string | undefined,
  ): Promise<void> {
    const { bank } = request;
    const nationalId = request.psu.nationalId;
    // The session names the core's customer already; only a national identity number needs the core to say whose it is.
    const signer: Pick<Customer, 'id'> | undefined =
      sessionCustomerId !== undefined
        ? { id: sessionCustomerId }
        : nationalId === undefined
          ? undefined
          : await this.core.findCustomer(bank, { customerNumber: nationalId });
    const problem =
      signer === undefined
        ? 'not a customer'
        : await debtorAccountProblem(this.core, bank, debtor, signer, request.psu.corporateId);
    if (problem === undefined) return;
    throw ApiError.of([
      {
        code: 'PAYMENT_FAILED',
        path: '$.debtorAccount',
        text:
          request.psu.corporateId === undefined
            ? 'the PSU cannot pay from this debtor account at this bank: it is not an account the PSU holds'
            : `the PSU cannot pay from this debtor account at this bank: it is not an account of corporate agreement ${request.psu.corporateId} (PSU-Corporate-ID) on which the PSU may register payments`,
      },
    ]);
  }

  /** The product's rules, the PSU's identity and x-accept-fix, every problem of them together with the schema's. */
  private judge(request: RequestContext, order: PaymentOrder, today: string): JudgedOrder {
    const fixes = acceptedFixes(request.acceptFix, today);
    const { psu, problems: psuProblems } = identifyPsu(request.psu, this.sca.nationalIdKey);
    const rules = productRules(order.service, order.product);
    // Programmer error: the routes create only products the registry has.
    if (rules === undefined) throw new Error(`no rules for ${order.service} ${order.product}`);
    const validation: ProductValidation = rules.validate(order.body, { today, rates: this.rates });
    const problems = [...order.schemaProblems, ...psuProblems, ...validation.problems];
    if (problems.length > 0 || validation.payment === undefined || psu === undefined) throw ApiError.of(problems);
    return { validated: validation.payment, psu, fixes, rules };
  }

  /** The payment as it stands by the bank's clock at `now` (when left out, the TPP's bank's clock, read with the payment). */
  async read(
    request: Pick<RequestContext, 'tpp' | 'bank'>,
    service: string,
    product: string,
    paymentId: string,
    now?: Date,
  ): Promise<StoredPayment> {
    const problem = productProblem(service, product);
    if (problem !== undefined) throw ApiError.of([problem]);
    const stored = await this.store.findPayment(request.tpp.id, paymentId, request.bank);
    const payment =
      stored === undefined
        ? undefined
        : withEffectiveStatus(stored, now ?? this.banks.clockAt(stored.bankClockOffsetMs).now());
    if (payment === undefined || payment.service !== service || payment.product !== product) {
      throw new ApiError(
        'RESOURCE_UNKNOWN',
        `no ${service} resource ${paymentId} of product ${product} is known to this TPP`,
        [
          {
            code: 'RESOURCE_UNKNOWN',
            path: 'path:paymentId',
            text: `no ${service} resource ${paymentId} of product ${product} is known to this TPP`,
          },
        ],
      );
    }
    return payment;
  }

  /**
   * What became of each entry of a bulk payment once it executed, in entry order (ACSC, or RJCT with
   * its own reason: a bulk executed in part is PART); undefined for any other payment, and before
   * the batch run took it.
   */
  async entryOutcomes(payment: StoredPayment): Promise<EntryOutcome[] | undefined> {
    if (payment.service !== 'bulk-payments' || !EXECUTED.has(payment.status)) return undefined;
    const entries = await this.store.findEntryOutcomes(payment.id);
    return entries.every((e) => EXECUTED_ENTRY.has(e.status)) ? entries : undefined;
  }

  /**
   * DELETE: a payment still waiting for its SCA is cancelled at once (204, no body). One the PSU
   * authorised is cancelled only through a cancellation SCA (docs/platform-research.md §3.5): 202 with the
   * status as it stands and `_links.startAuthorisation` to …/cancellation-authorisations; nothing
   * changes until the PSU approves the cancellation.
   *
   * The DELETE's X-Request-ID is kept with the cancellation: a copy of the same request may have
   * cancelled the payment already (a retry whose first answer was lost, or two sent at once), which
   * is the outcome it asked for (204), whichever copy ran first.
   */
  async cancel(request: RequestContext, service: string, product: string, paymentId: string): Promise<Answer> {
    const now = await this.banks.now(request.tpp.id);
    const payment = await this.read(request, service, product, paymentId, now);
    if (needsCancellationSca(payment.status)) {
      const links = paymentLinks(service, product, paymentId);
      const body = {
        transactionStatus: payment.status,
        _links: {
          ...paymentAnswerLinks(service, product, paymentId, payment.status),
          startAuthorisation: { href: links.cancellationAuthorisations, verbs: ['POST'] },
        },
      };
      return { status: 202, body };
    }
    const result =
      payment.status === 'RJCT'
        ? { outcome: 'not-cancellable' as const, status: payment.status }
        : await this.store.cancelPayment(request.tpp.id, paymentId, now, request.requestId);
    if (result.outcome === 'unknown')
      throw new ApiError('RESOURCE_UNKNOWN', `no payment ${paymentId} is known to this TPP`);
    if (result.outcome === 'not-cancellable') {
      throw new ApiError(
        'CANCELLATION_INVALID',
        `payment ${paymentId} is ${result.status} and can no longer be cancelled; a payment can be cancelled until the batch run executes it (statuses RCVD, ACTC, ACCP, ACWC, PDNG)`,
      );
    }
    return { status: 204, body: undefined };
  }
}

/** The statuses of a payment the batch run executed (in full, in part, or not at all), and of an entry of it. */
const EXECUTED: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'PART', 'RJCT']);
const EXECUTED_ENTRY: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'RJCT']);

/** spec, Authentication 11: why a payment created without PSU-Context has no scaRedirect. */
const PSU_CONTEXT_MISSING: TppMessage = {
  category: 'WARNING',
  code: 'HTTP_HEADER_REQUIRED',
  path: 'header:PSU-Context',
  text: 'PSU-Context is required for single-SCA payment initiation: without it the answer has no scaRedirect; put the payment in a signing basket, start its authorisation (_links.startAuthorisation), or send PSU-Context (PRIVATE or CORPORATE)',
};

function duplicateRefusal(duplicates: LogicalDuplicate[]): ApiError {
  return ApiError.of(
    duplicates.map((d) => ({
      code: 'CONFLICT' as const,
      path: d.path,
      text: `${d.path === '$' ? 'the payment' : d.path} equals payment ${d.paymentId} of the same PSU, created at ${d.createdAt} (same debtor, creditor, amount, currency, execution date and remittance); send allowLogicalDuplicate=true to create it anyway`,
    })),
  );
}

/** A payment past its signing window reads as RJCT, with the reason, before anything wrote it down. */
function withEffectiveStatus(payment: StoredPayment, now: Date): StoredPayment {
  const status = effectiveStatus(payment.status, payment.createdAt, now);
  return status === payment.status
    ? payment
    : { ...payment, status, statusReason: payment.statusReason ?? EXPIRED_REASON };
}

function psuMessage(rules: ProductRules, validated: JudgedOrder['validated'], language: Language): string {
  const { transfers } = validated;
  const [first] = transfers;
  if (rules.psuMessage === 'standing-order')
    return clipText(
      PSU_MESSAGES.standingOrderReceived[language](
        first!.amount,
        first!.creditorName,
        validated.requestedExecutionDate!,
      ),
    );
  if (rules.psuMessage === 'cross-border')
    return clipText(PSU_MESSAGES.crossBorderReceived[language](first!.amount, first!.creditorName));
  if (rules.psuMessage === 'domestic')
    return clipText(PSU_MESSAGES.domesticReceived[language](first!.amount, first!.creditorName));
  const total = transfers.reduce((sum, t) => sum + t.amount.minor, 0n);
  return clipText(
    PSU_MESSAGES.bulkReceived[language](transfers.length, { minor: total, currency: first!.amount.currency }),
  );
}
