import type { ScaStore } from '../store/sca-store.js';
import type { BindingStore } from '../store/binding-store.js';
import { ApiError, type TppMessage } from '../domain/api-error.js';
import { MAX_AUTHORISATIONS_PER_RESOURCE } from '../domain/limits.js';
import { SCA_LINK_TTL_MINUTES, type ScaStatus, isScaExpired, scaStatusOf } from '../domain/sca.js';
import type { Authorisation } from '../store/sca-records.js';
import type { Banks } from './banks.js';
import { type Answer, idempotentCreate } from './idempotent-create.js';
import type { RequestContext } from './request-context.js';
import type { ScaService } from './sca-service.js';

/**
 * One list of authorisations (Berlin Group's sub-resources): a payment's or a basket's
 * (…/authorisations), or a payment's cancellation's (…/cancellation-authorisations).
 */
export interface AuthorisationList {
  kind: 'payment' | 'basket' | 'cancellation';
  objectId: string;
  /** The list's path, e.g. `/v1/payments/{product}/{paymentId}/cancellation-authorisations`. */
  path: string;
}

/**
 * Starts, lists and reads the authorisations of payments, baskets and cancellations, the same way
 * for each (docs/sca.md, "Authorisation sub-resources"); what may be authorised is the caller's check.
 */
/** An authorisation's status read: its scaStatus, and why it failed when the link expired. */
export interface ScaStatusAnswer {
  scaStatus: ScaStatus;
  tppMessages?: TppMessage[];
}

export class AuthorisationService {
  constructor(
    private readonly store: ScaStore & BindingStore,
    private readonly banks: Banks,
    private readonly sca: ScaService,
  ) {}

  /**
   * POST of the list: a new authorisation and its scaRedirect, once `check` found the resource in a
   * state for it (it throws otherwise). An idempotent create: a retry gets the first answer and
   * starts no second authorisation.
   */
  start(request: RequestContext, list: AuthorisationList, check: () => Promise<void>): Promise<Answer> {
    return idempotentCreate(this.store, `POST ${list.path}`, request, async (record) => {
      await check();
      const started = await this.list(request.tpp.id, list);
      if (started.length >= MAX_AUTHORISATIONS_PER_RESOURCE) {
        throw new ApiError(
          'REFERENCE_STATUS_INVALID',
          `${list.objectId} has ${started.length} authorisations of this kind already, the most one resource can have (${MAX_AUTHORISATIONS_PER_RESOURCE}); complete one of them`,
        );
      }
      const signing = this.sca.prepare(list.kind, list.objectId, request.sca, await this.banks.now(request.tpp.id));
      const id = signing.authorisation.id;
      // The platform answers scaStatus and scaRedirect; authorisationId and the scaStatus link are
      // Berlin Group's (docs/decisions/0066).
      const answer: Answer = {
        status: 201,
        body: {
          scaStatus: 'started',
          authorisationId: id,
          _links: {
            scaRedirect: { href: signing.link, verbs: ['GET'] },
            scaStatus: { href: `${list.path}/${encodeURIComponent(id)}`, verbs: ['GET'] },
          },
        },
      };
      const earlier = await this.store.startAuthorisation(
        signing.authorisation,
        record(answer, { kind: 'authorisation', id }),
      );
      return earlier === undefined ? { created: answer } : { replayed: earlier };
    });
  }

  /** GET of the list: the ids, oldest first (the resource's own check comes first, by the caller). */
  async ids(request: Pick<RequestContext, 'tpp'>, list: AuthorisationList): Promise<string[]> {
    return (await this.list(request.tpp.id, list)).map((authorisation) => authorisation.id);
  }

  /**
   * GET of one: its scaStatus by the TPP's bank's clock, with SCA_EXPIRED when the PSU left the link or
   * page until it expired; 404 for an id not in the list.
   */
  async status(
    request: Pick<RequestContext, 'tpp'>,
    list: AuthorisationList,
    authorisationId: string,
  ): Promise<ScaStatusAnswer> {
    const found = (await this.list(request.tpp.id, list)).find((authorisation) => authorisation.id === authorisationId);
    if (found === undefined) {
      const text = `no authorisation ${authorisationId} is known at ${list.path}`;
      throw new ApiError('RESOURCE_UNKNOWN', text, [{ code: 'RESOURCE_UNKNOWN', path: 'path:authorisationId', text }]);
    }
    const now = await this.banks.now(request.tpp.id);
    if (!isScaExpired(found, now)) return { scaStatus: scaStatusOf(found, now) };
    const text = `the PSU did not complete the SCA before its link expired (${SCA_LINK_TTL_MINUTES} minutes after it was issued or last used): the page was left. Start a new authorisation (POST ${list.path})`;
    return { scaStatus: 'failed', tppMessages: [{ category: 'ERROR', code: 'SCA_EXPIRED', text }] };
  }

  private list(tppId: string, list: AuthorisationList): Promise<Authorisation[]> {
    return this.store.listAuthorisations(tppId, list.kind, list.objectId, MAX_AUTHORISATIONS_PER_RESOURCE);
  }
}
