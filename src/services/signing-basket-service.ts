import type { BasketStore } from '../store/basket-store.js';
import type { PaymentStore } from '../store/payment-store.js';
import type { BindingStore } from '../store/binding-store.js';
import type { ScaStore } from '../store/sca-store.js';
import { ApiError, type Problem } from '../domain/api-error.js';
import { effectiveStatus } from '../domain/sca.js';
import { type BasketStatus, basketStatus } from '../domain/signing-basket.js';
import { newPaymentId } from '../domain/payments/payment.js';
import { productRules } from '../domain/payments/product-rules.js';
import type { TransactionStatus } from '../domain/transaction-status.js';
import { type AuthorisationList, AuthorisationService, type ScaStatusAnswer } from './authorisation-service.js';
import type { Banks } from './banks.js';
import { type Answer, type Created, type RecordAnswer, idempotentCreate } from './idempotent-create.js';
import type { RequestContext } from './request-context.js';
import type { ScaRequestContext, ScaService } from './sca-service.js';

export interface BasketView {
  basketId: string;
  payments: string[];
  transactionStatus: BasketStatus;
}

const PSU_REQUIRED = 'header PSU-ID is required (or X-PSU-IDENTITY): a basket is signed by one PSU';

/**
 * Signing baskets (Berlin Group form): a TPP groups payments of one PSU so that one SCA signs them
 * all. The operation is not atomic: each payment keeps its own status; the basket's is the worst.
 */
export class SigningBasketService {
  private readonly authorisations: AuthorisationService;

  constructor(
    private readonly store: BasketStore & PaymentStore & BindingStore & ScaStore,
    private readonly banks: Banks,
    private readonly sca: ScaService,
  ) {
    this.authorisations = new AuthorisationService(store, banks, sca);
  }

  /** schemaProblems: those the request schema found, reported with the basket's own. */
  create(request: RequestContext, body: unknown, schemaProblems: Problem[]): Promise<Answer> {
    return idempotentCreate(this.store, 'POST /v1/signing-baskets', request, (record) =>
      this.createBasket(request, body, schemaProblems, record),
    );
  }

  private async createBasket(
    request: RequestContext,
    body: unknown,
    schemaProblems: Problem[],
    record: RecordAnswer,
  ): Promise<Created> {
    const problems = withConsentIdsExplained(body, schemaProblems);
    if (problems.length > 0) throw ApiError.of(problems);
    const { sca } = request;
    if (sca.psuId === undefined && sca.psuNationalIdHash === undefined) {
      throw new ApiError('HTTP_HEADER_REQUIRED', PSU_REQUIRED, [
        { code: 'HTTP_HEADER_REQUIRED', path: 'header:PSU-ID', text: PSU_REQUIRED },
      ]);
    }
    const paymentIds = (body as { paymentIds: string[] }).paymentIds;
    const psuKey = await this.psuKeyOf(sca);
    const now = await this.banks.now(request.tpp.id);
    await this.checkPayments(request.tpp.id, paymentIds, psuKey, now);

    const id = newPaymentId();
    const signing = this.sca.prepare('basket', id, sca, now);
    const self = `/v1/signing-baskets/${encodeURIComponent(id)}`;
    const answer: Answer = {
      status: 201,
      body: {
        basketId: id,
        transactionStatus: 'RCVD' as const,
        _links: {
          self: { href: self, verbs: ['GET', 'DELETE'] },
          status: { href: `${self}/status`, verbs: ['GET'] },
          scaRedirect: { href: signing.link, verbs: ['GET'] },
        },
      },
    };
    const result = await this.store.createBasket(
      { id, tppId: request.tpp.id, psuKey, requestBody: JSON.stringify(body), createdAt: now },
      paymentIds,
      record(answer, { kind: 'basket', id }),
      signing.authorisation,
    );
    if (result.outcome === 'replayed') return { replayed: result.request };
    if (result.outcome === 'payment-in-basket') {
      throw new ApiError(
        'REFERENCE_STATUS_INVALID',
        `payment ${result.paymentId} is already in signing basket ${result.basketId}; a payment is signed in one basket at most`,
      );
    }
    return { created: answer };
  }

  async read(request: RequestContext, basketId: string): Promise<BasketView> {
    const { tpp, sca } = request;
    if (sca.psuId !== undefined) await this.sca.requireSession({ ...sca, psuId: sca.psuId });
    const basket = await this.store.findBasket(tpp.id, basketId);
    if (basket === undefined) throw unknownBasket(basketId);
    const payments = await this.store.findPaymentsForSca(tpp.id, basket.paymentIds);
    const now = await this.banks.now(tpp.id);
    const statuses: TransactionStatus[] = payments.map((p) => effectiveStatus(p.status, p.createdAt, now));
    return { basketId, payments: basket.paymentIds, transactionStatus: basketStatus(statuses) };
  }

  /** A basket can be deleted while nothing in it is authorised; its payments are then free again. */
  async delete(request: RequestContext, basketId: string): Promise<void> {
    const view = await this.read(request, basketId);
    if (view.transactionStatus !== 'RCVD') {
      throw new ApiError(
        'CANCELLATION_INVALID',
        `signing basket ${basketId} is ${view.transactionStatus}: a basket can be deleted only while none of its payments is authorised or rejected`,
      );
    }
    if (!(await this.store.deleteBasket(request.tpp.id, basketId))) throw unknownBasket(basketId);
  }

  /**
   * POST …/authorisations: a new SCA link for a basket none of whose payments is authorised yet (its
   * first link expired or was used); the platform: "this works like the authorisation flow for a
   * single payment".
   */
  startAuthorisation(request: RequestContext, basketId: string): Promise<Answer> {
    return this.authorisations.start(request, authorisationList(basketId), async () => {
      const view = await this.read(request, basketId);
      if (view.transactionStatus !== 'RCVD') {
        throw new ApiError(
          'REFERENCE_STATUS_INVALID',
          `signing basket ${basketId} is ${view.transactionStatus}; only a basket whose payments all wait for SCA (RCVD) can be authorised`,
        );
      }
    });
  }

  /** GET …/authorisations: the ids of the basket's authorisations, oldest first. */
  async authorisationIds(request: RequestContext, basketId: string): Promise<string[]> {
    await this.read(request, basketId);
    return this.authorisations.ids(request, authorisationList(basketId));
  }

  /** GET …/authorisations/{authorisationId}: its scaStatus. */
  async authorisationStatus(
    request: RequestContext,
    basketId: string,
    authorisationId: string,
  ): Promise<ScaStatusAnswer> {
    await this.read(request, basketId);
    return this.authorisations.status(request, authorisationList(basketId), authorisationId);
  }

  private async psuKeyOf(sca: ScaRequestContext): Promise<string> {
    if (sca.psuId !== undefined) {
      await this.sca.requireSession({ ...sca, psuId: sca.psuId });
      return `psu:${sca.psuId.toLowerCase()}`;
    }
    return `nin:${sca.psuNationalIdHash}`;
  }

  /**
   * spec, rule 4: a bulk or periodic payment cannot be in a basket (REFERENCE_MIX_INVALID), and nor can a
   * product the registry keeps out (Straks, executed at its own SCA: product-rules.ts). Unknown,
   * foreign and repeated ids are refused by path, and so are payments of another PSU; a payment
   * already authorised, rejected or cancelled is REFERENCE_STATUS_INVALID.
   */
  private async checkPayments(tppId: string, paymentIds: string[], psuKey: string, now: Date): Promise<void> {
    const found = new Map((await this.store.findPaymentsForSca(tppId, paymentIds)).map((p) => [p.id, p]));
    const problems: Problem[] = [];
    const statusProblems: Problem[] = [];
    const mix: Problem[] = [];
    const seen = new Set<string>();
    paymentIds.forEach((paymentId, index) => {
      const path = `$.paymentIds[${index}]`;
      const payment = found.get(paymentId);
      if (seen.has(paymentId))
        problems.push({ code: 'FORMAT_ERROR', path, text: `${path} repeats payment ${paymentId}` });
      seen.add(paymentId);
      if (payment === undefined) {
        problems.push({ code: 'FORMAT_ERROR', path, text: `${path}: no payment ${paymentId} is known to this TPP` });
        return;
      }
      if (payment.service !== 'payments') {
        mix.push({
          code: 'REFERENCE_MIX_INVALID',
          path,
          text: `${path}: ${paymentId} is a ${payment.service === 'bulk-payments' ? 'bulk' : 'periodic'} payment, which cannot be put in a signing basket`,
        });
        return;
      }
      if (productRules(payment.service, payment.product)?.inBasket !== true) {
        mix.push({
          code: 'REFERENCE_MIX_INVALID',
          path,
          text: `${path}: ${paymentId} is a ${payment.product} payment, which is executed at once at its own SCA and so cannot be put in a signing basket`,
        });
        return;
      }
      if (payment.psuKey !== psuKey) {
        problems.push({
          code: 'FORMAT_ERROR',
          path,
          text: `${path}: payment ${paymentId} was initiated for another PSU than the one this basket names`,
        });
      }
      const status = effectiveStatus(payment.status, payment.createdAt, now);
      if (status !== 'RCVD')
        statusProblems.push({
          code: 'REFERENCE_STATUS_INVALID',
          path,
          text: `${path}: payment ${paymentId} is ${status}; only payments waiting for SCA (RCVD) can be put in a basket`,
        });
    });
    if (mix.length > 0) throw ApiError.of(mix);
    if (problems.length > 0) throw ApiError.of(problems);
    if (statusProblems.length > 0) throw ApiError.of(statusProblems);
  }
}

function authorisationList(basketId: string): AuthorisationList {
  return {
    kind: 'basket',
    objectId: basketId,
    path: `/v1/signing-baskets/${encodeURIComponent(basketId)}/authorisations`,
  };
}

function unknownBasket(basketId: string): ApiError {
  return new ApiError('RESOURCE_UNKNOWN', `no signing basket ${basketId} is known to this TPP`, [
    { code: 'RESOURCE_UNKNOWN', path: 'path:basketId', text: `no signing basket ${basketId} is known to this TPP` },
  ]);
}

/**
 * Berlin Group lets a basket hold consentIds; this bank's consents have none to give (they are
 * bank-offered: the PSU gives each on its own scaRedirect, docs/decisions/0209). A non-empty list is
 * refused with that reason at $.consentIds rather than with the schema's bare count.
 */
function withConsentIdsExplained(body: unknown, schemaProblems: readonly Problem[]): Problem[] {
  const consentIds =
    typeof body === 'object' && body !== null ? (body as { consentIds?: unknown }).consentIds : undefined;
  if (!Array.isArray(consentIds) || consentIds.length === 0) return [...schemaProblems];
  return [
    ...schemaProblems.filter((problem) => problem.path === undefined || !problem.path.startsWith('$.consentIds')),
    {
      code: 'FORMAT_ERROR',
      path: '$.consentIds',
      text: "$.consentIds: this bank's consents have no id to put in a basket: a consent is asked for with POST /v1/bank-offered-consents and given by the PSU on its own scaRedirect; leave consentIds out (or empty)",
    },
  ];
}
