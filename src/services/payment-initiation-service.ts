import { acceptedFixes } from '../domain/accept-fix.js';
import { requestIdReusedText } from '../domain/request-binding.js';
import { ApiError, type Problem, type TppMessage, clipText } from '../domain/api-error.js';
import { osloDate } from '../domain/clock.js';
import type { Language } from '../domain/language.js';
import { LOGICAL_DUPLICATE_WINDOW_HOURS } from '../domain/limits.js';
import { formatMoney } from '../domain/money.js';
import { CROSS_BORDER, type PaymentProduct, type PaymentService, productProblem } from '../domain/payment-product.js';
import { type ProductValidation, validateCrossBorderPayment } from '../domain/payments/cross-border-payment.js';
import { validateDomesticBulkPayment } from '../domain/payments/domestic-bulk-payment.js';
import { type NewPayment, newPaymentId } from '../domain/payments/payment.js';
import { type NationalIdKey, type PsuHeaders, identifyPsu } from '../domain/psu.js';
import { PSU_MESSAGES } from '../domain/psu-messages.js';
import type { TppIdentity } from '../domain/psp-role.js';
import type { ReferenceRates } from '../domain/reference-rates.js';
import type { Store, StoredPayment } from '../store/store.js';
import type { Banks } from './banks.js';
import { EXPIRED_REASON, PsuAuthenticationRequired, effectiveStatus } from '../domain/sca.js';
import type { ScaRequestContext, ScaService } from './sca-service.js';

export interface InitiationRequest {
  tpp: TppIdentity;
  /** What the SCA needs of the request: PSU, context, preferences, redirect. */
  sca: ScaRequestContext;
  service: PaymentService;
  product: PaymentProduct;
  body: unknown;
  requestId: string;
  /** The X-Request-ID was bound before this request (request-replay-guard.ts): it may repeat a stored create. */
  retry: boolean;
  /** SHA-256 of the body bytes as received: a retry repeats the request exactly (docs/decisions.md, Idempotency). */
  bodySha256: string;
  psuHeaders: PsuHeaders;
  acceptFixHeader: string | undefined;
  tppRedirectUri: string;
  tppSessionId: string;
  allowLogicalDuplicate: boolean;
  language: Language;
  /** Problems the request schema found; reported together with the product's own. */
  schemaProblems: Problem[];
}

export interface Answer {
  status: number;
  body: unknown;
}

export interface PaymentLinks {
  self: string;
  status: string;
}

/** Use cases of payment initiation: create (idempotent by X-Request-ID), read, read status, cancel. */
export class PaymentInitiationService {
  constructor(
    private readonly store: Store,
    private readonly banks: Banks,
    private readonly rates: ReferenceRates,
    private readonly sca: ScaService,
  ) {}

  /** The key X-PSU-IDENTITY is hashed with, for the routes that read it. */
  get nationalIdKey(): NationalIdKey {
    return this.sca.nationalIdKey;
  }

  async initiate(request: InitiationRequest): Promise<Answer> {
    const operation = `POST /v1/${request.service}/${request.product}`;
    const { bodySha256 } = request;
    // A retry is answered as the first request was, even if the rules would now judge it otherwise
    // (an execution date that has since become yesterday). A request whose X-Request-ID was bound
    // before is looked up first. One bound anew may still repeat a stored request whose binding
    // expired (a retry signed again later): it is looked up when the rules refuse it, and the
    // create's transaction answers it from the store when they accept it.
    if (request.retry) {
      const earlier = await this.store.findTppRequest(request.tpp.id, request.requestId);
      if (earlier !== undefined) return replay(earlier, operation, bodySha256, request.requestId);
    }
    try {
      return await this.create(request, operation);
    } catch (error) {
      if (request.retry || !(error instanceof ApiError || error instanceof PsuAuthenticationRequired)) throw error;
      const earlier = await this.store.findTppRequest(request.tpp.id, request.requestId);
      if (earlier === undefined) throw error;
      return replay(earlier, operation, bodySha256, request.requestId);
    }
  }

  private async create(request: InitiationRequest, operation: string): Promise<Answer> {
    const { bodySha256 } = request;
    // The TPP's bank's business clock: its own in the sandbox, the wall clock in production.
    const now = await this.banks.now(request.tpp.id);
    const today = osloDate(now);
    const fixes = acceptedFixes(request.acceptFixHeader, today);
    const { psu, problems: psuProblems } = identifyPsu(request.psuHeaders, this.sca.nationalIdKey);
    const validation: ProductValidation =
      request.product === CROSS_BORDER
        ? validateCrossBorderPayment(request.body, { today, rates: this.rates })
        : validateDomesticBulkPayment(request.body, { today, rates: this.rates });
    const problems = [...request.schemaProblems, ...psuProblems, ...validation.problems];
    if (problems.length > 0 || validation.payment === undefined || psu === undefined) throw ApiError.of(problems);

    // A PSU named by PSU-ID must have a valid session with this TPP, or is sent to SCA first (401).
    if (psu.psuId !== undefined) await this.sca.requireSession({ ...request.sca, psuId: psu.psuId });

    const validated = validation.payment;
    const id = newPaymentId();
    const links = paymentLinks(request.service, request.product, id);
    const warnings: TppMessage[] = [...fixes.warnings, ...validated.warnings];
    // spec, Authentication 11: PSU-Context must be set for single-SCA payment initiation. Without it
    // the payment gets no scaRedirect of its own and is signed in a signing basket.
    const signing = psu.context === undefined ? undefined : this.sca.prepare('payment', id, request.sca, now);
    if (signing === undefined) {
      warnings.push({
        category: 'WARNING',
        code: 'HTTP_HEADER_REQUIRED',
        path: 'header:PSU-Context',
        text: 'PSU-Context is required for single-SCA payment initiation: without it the answer has no scaRedirect; put the payment in a signing basket, or send PSU-Context (PRIVATE or CORPORATE)',
      });
    }
    const response = {
      paymentId: id,
      transactionStatus: 'RCVD' as const,
      transactionFees: formatMoney(validated.fees.total),
      transactionFeeIndicator: validated.fees.charged,
      ...(warnings.length > 0 ? { tppMessages: warnings } : {}),
      psuMessage: psuMessage(request, validated.transfers, request.language),
      _links: {
        self: { href: links.self, verbs: ['GET', 'DELETE'] },
        status: { href: links.status, verbs: ['GET'] },
        ...(signing === undefined ? {} : { scaRedirect: { href: signing.link, verbs: ['GET'] } }),
      },
    };
    const payment: NewPayment = {
      ...validated,
      id,
      tppId: request.tpp.id,
      service: request.service,
      product: request.product,
      status: 'RCVD',
      psu,
      body: request.body,
      acceptFixes: [...fixes.active],
      tppRedirectUri: request.tppRedirectUri,
      tppSessionId: request.tppSessionId,
      createdAt: now,
    };
    const responseBody = JSON.stringify(response);
    const result = await this.store.createPayment(
      payment,
      {
        tppId: request.tpp.id,
        requestId: request.requestId,
        operation,
        bodySha256: bodySha256,
        responseStatus: 201,
        responseBody,
      },
      {
        duplicatesSince: request.allowLogicalDuplicate
          ? null
          : new Date(now.getTime() - LOGICAL_DUPLICATE_WINDOW_HOURS * 3_600_000),
        authorisation: signing?.authorisation,
        bank: this.banks.of(request.tpp.id),
      },
    );
    if (result.outcome === 'replayed') return replay(result.request, operation, bodySha256, request.requestId);
    if (result.outcome === 'duplicate') {
      throw ApiError.of(
        result.duplicates.map((d) => ({
          code: 'CONFLICT' as const,
          path: d.path,
          text: `${d.path === '$' ? 'the payment' : d.path} equals payment ${d.paymentId} of the same PSU, created at ${d.createdAt} (same debtor, creditor, amount, currency, execution date and remittance); send allowLogicalDuplicate=true to create it anyway`,
        })),
      );
    }
    return { status: 201, body: response };
  }

  /** The payment as it stands by the bank's clock at `now` (when left out, the TPP's bank's clock, read with the payment). */
  async read(
    tpp: TppIdentity,
    service: string,
    product: string,
    paymentId: string,
    now?: Date,
  ): Promise<StoredPayment> {
    const problem = productProblem(service, product);
    if (problem !== undefined) throw ApiError.of([problem]);
    const stored = await this.store.findPayment(tpp.id, paymentId, this.banks.of(tpp.id));
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
   * requestId: the DELETE's X-Request-ID. A copy of the same request may have cancelled the payment
   * already (a retry whose first answer was lost, or two sent at once): that is the outcome it asked
   * for (204), whichever copy ran first.
   */
  async cancel(
    tpp: TppIdentity,
    service: string,
    product: string,
    paymentId: string,
    requestId: string,
  ): Promise<void> {
    const now = await this.banks.now(tpp.id);
    const payment = await this.read(tpp, service, product, paymentId, now);
    const result =
      payment.status === 'RJCT'
        ? { outcome: 'not-cancellable' as const, status: payment.status }
        : await this.store.cancelPayment(tpp.id, paymentId, now, requestId);
    if (result.outcome === 'unknown')
      throw new ApiError('RESOURCE_UNKNOWN', `no payment ${paymentId} is known to this TPP`);
    if (result.outcome === 'not-cancellable') {
      throw new ApiError(
        'CANCELLATION_INVALID',
        `payment ${paymentId} is ${result.status} and can no longer be cancelled; a payment can be cancelled until the batch run executes it (statuses RCVD, ACTC, ACCP, ACWC, PDNG)`,
      );
    }
  }

  /** A new SCA link for a payment still waiting for one (Berlin Group: start an authorisation). */
  async startAuthorisation(
    tpp: TppIdentity,
    service: string,
    product: string,
    paymentId: string,
    sca: ScaRequestContext,
  ): Promise<string> {
    const payment = await this.read(tpp, service, product, paymentId);
    if (payment.status !== 'RCVD') {
      throw new ApiError(
        'REFERENCE_STATUS_INVALID',
        `payment ${paymentId} is ${payment.status}; only a payment waiting for SCA (RCVD) can be authorised`,
      );
    }
    const basketId = await this.store.findBasketOfPayment(paymentId);
    if (basketId !== undefined) {
      throw new ApiError(
        'REFERENCE_STATUS_INVALID',
        `payment ${paymentId} is in signing basket ${basketId}; it is signed with the basket`,
      );
    }
    return this.sca.start('payment', paymentId, sca);
  }
}

/** A payment past its signing window reads as RJCT, with the reason, before anything wrote it down. */
function withEffectiveStatus(payment: StoredPayment, now: Date): StoredPayment {
  const status = effectiveStatus(payment.status, payment.createdAt, now);
  return status === payment.status
    ? payment
    : { ...payment, status, statusReason: payment.statusReason ?? EXPIRED_REASON };
}

export function paymentLinks(service: string, product: string, paymentId: string): PaymentLinks {
  const self = `/v1/${service}/${product}/${encodeURIComponent(paymentId)}`;
  return { self, status: `${self}/status` };
}

function psuMessage(request: InitiationRequest, transfers: NewPayment['transfers'], language: Language): string {
  const [first] = transfers;
  if (request.product === CROSS_BORDER)
    return clipText(PSU_MESSAGES.crossBorderReceived[language](first!.amount, first!.creditorName));
  const total = transfers.reduce((sum, t) => sum + t.amount.minor, 0n);
  return clipText(
    PSU_MESSAGES.bulkReceived[language](transfers.length, { minor: total, currency: first!.amount.currency }),
  );
}

export function replay(
  earlier: { operation: string; bodySha256: string; responseStatus: number; responseBody: string },
  operation: string,
  bodySha256: string,
  requestId: string,
): Answer {
  if (earlier.operation !== operation || earlier.bodySha256 !== bodySha256) {
    const text = requestIdReusedText(requestId, earlier.operation, earlier.operation === operation);
    throw new ApiError('CONFLICT', text, [{ code: 'CONFLICT', path: 'header:X-Request-ID', text }]);
  }
  return { status: earlier.responseStatus, body: JSON.parse(earlier.responseBody) as unknown };
}
