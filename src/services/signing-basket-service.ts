import { ApiError, type Problem } from '../domain/api-error.js';
import type { NationalIdKey } from '../domain/psu.js';
import { effectiveStatus } from '../domain/sca.js';
import { type BasketStatus, basketStatus } from '../domain/signing-basket.js';
import { newPaymentId } from '../domain/payments/payment.js';
import type { TppIdentity } from '../domain/psp-role.js';
import type { TransactionStatus } from '../domain/transaction-status.js';
import type { Store } from '../store/store.js';
import type { Banks } from './banks.js';
import { type Answer, replay } from './payment-initiation-service.js';
import type { ScaRequestContext, ScaService } from './sca-service.js';

export interface BasketView {
  basketId: string;
  payments: string[];
  transactionStatus: BasketStatus;
}

/**
 * Signing baskets (Berlin Group form): a TPP groups payments of one PSU so that one SCA signs them
 * all. The operation is not atomic: each payment keeps its own status; the basket's is the worst.
 */
export class SigningBasketService {
  constructor(
    private readonly store: Store,
    private readonly banks: Banks,
    private readonly sca: ScaService,
  ) {}

  /** The key X-PSU-IDENTITY is hashed with, for the routes that read it. */
  get nationalIdKey(): NationalIdKey {
    return this.sca.nationalIdKey;
  }

  /** bodySha256: of the body bytes as received, which a retry repeats exactly (docs/decisions.md, Idempotency). */
  async create(
    tpp: TppIdentity,
    body: unknown,
    requestId: string,
    bodySha256: string,
    sca: ScaRequestContext,
    schemaProblems: Problem[],
  ): Promise<Answer> {
    const operation = 'POST /v1/signing-baskets';
    const earlier = await this.store.findTppRequest(tpp.id, requestId);
    if (earlier !== undefined) return replay(earlier, operation, bodySha256, requestId);
    const problems = withConsentIdsExplained(body, schemaProblems);
    if (problems.length > 0) throw ApiError.of(problems);
    if (sca.psuId === undefined && sca.psuNationalIdHash === undefined) {
      throw new ApiError(
        'HTTP_HEADER_REQUIRED',
        'header PSU-ID is required (or X-PSU-IDENTITY): a basket is signed by one PSU',
        [
          {
            code: 'HTTP_HEADER_REQUIRED',
            path: 'header:PSU-ID',
            text: 'header PSU-ID is required (or X-PSU-IDENTITY): a basket is signed by one PSU',
          },
        ],
      );
    }
    const paymentIds = (body as { paymentIds: string[] }).paymentIds;
    const psuKey = await this.psuKeyOf(sca);
    const now = await this.banks.now(tpp.id);
    await this.checkPayments(tpp, paymentIds, psuKey, now);

    const id = newPaymentId();
    const signing = this.sca.prepare('basket', id, sca, now);
    const self = `/v1/signing-baskets/${encodeURIComponent(id)}`;
    const response = {
      basketId: id,
      transactionStatus: 'RCVD' as const,
      _links: {
        self: { href: self, verbs: ['GET', 'DELETE'] },
        status: { href: `${self}/status`, verbs: ['GET'] },
        scaRedirect: { href: signing.link, verbs: ['GET'] },
      },
    };
    const result = await this.store.createBasket(
      { id, tppId: tpp.id, psuKey, requestBody: JSON.stringify(body), createdAt: now },
      paymentIds,
      {
        tppId: tpp.id,
        requestId,
        operation,
        bodySha256: bodySha256,
        responseStatus: 201,
        responseBody: JSON.stringify(response),
      },
      signing.authorisation,
    );
    if (result.outcome === 'replayed') return replay(result.request, operation, bodySha256, requestId);
    if (result.outcome === 'payment-in-basket') {
      throw new ApiError(
        'REFERENCE_STATUS_INVALID',
        `payment ${result.paymentId} is already in signing basket ${result.basketId}; a payment is signed in one basket at most`,
      );
    }
    return { status: 201, body: response };
  }

  async read(tpp: TppIdentity, basketId: string, sca: ScaRequestContext): Promise<BasketView> {
    if (sca.psuId !== undefined) await this.sca.requireSession({ ...sca, psuId: sca.psuId });
    const basket = await this.store.findBasket(tpp.id, basketId);
    if (basket === undefined) throw unknownBasket(basketId);
    const payments = await this.store.findPaymentsForSca(tpp.id, basket.paymentIds);
    const now = await this.banks.now(tpp.id);
    const statuses: TransactionStatus[] = payments.map((p) => effectiveStatus(p.status, p.createdAt, now));
    return { basketId, payments: basket.paymentIds, transactionStatus: basketStatus(statuses) };
  }

  /** A basket can be deleted while nothing in it is authorised; its payments are then free again. */
  async delete(tpp: TppIdentity, basketId: string, sca: ScaRequestContext): Promise<void> {
    const view = await this.read(tpp, basketId, sca);
    if (view.transactionStatus !== 'RCVD') {
      throw new ApiError(
        'CANCELLATION_INVALID',
        `signing basket ${basketId} is ${view.transactionStatus}: a basket can be deleted only while none of its payments is authorised or rejected`,
      );
    }
    if (!(await this.store.deleteBasket(tpp.id, basketId))) throw unknownBasket(basketId);
  }

  private async psuKeyOf(sca: ScaRequestContext): Promise<string> {
    if (sca.psuId !== undefined) {
      await this.sca.requireSession({ ...sca, psuId: sca.psuId });
      return `psu:${sca.psuId.toLowerCase()}`;
    }
    return `nin:${sca.psuNationalIdHash}`;
  }

  /**
   * spec, rule 4: a bulk or periodic payment cannot be in a basket (REFERENCE_MIX_INVALID). Unknown,
   * foreign and repeated ids are refused by path, and so are payments of another PSU; a payment
   * already authorised, rejected or cancelled is REFERENCE_STATUS_INVALID.
   */
  private async checkPayments(tpp: TppIdentity, paymentIds: string[], psuKey: string, now: Date): Promise<void> {
    const found = new Map((await this.store.findPaymentsForSca(tpp.id, paymentIds)).map((p) => [p.id, p]));
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

function unknownBasket(basketId: string): ApiError {
  return new ApiError('RESOURCE_UNKNOWN', `no signing basket ${basketId} is known to this TPP`, [
    { code: 'RESOURCE_UNKNOWN', path: 'path:basketId', text: `no signing basket ${basketId} is known to this TPP` },
  ]);
}

/**
 * Berlin Group lets a basket hold consentIds; this bank's consents have none to give (they are
 * bank-offered: the PSU gives each on its own scaRedirect, docs/decisions.md). A non-empty list is
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
