import type { ConsentStore } from '../../store/consent-store.js';
import type { ScaStore } from '../../store/sca-store.js';
import type { BindingStore } from '../../store/binding-store.js';
import { randomUUID } from 'node:crypto';
import type { ConsentResource, EndedConsent } from '../../domain/ais-consent.js';
import { ApiError, type Problem, type TppMessage } from '../../domain/api-error.js';
import { type PsuContext, psuHeaderProblems } from '../../domain/psu.js';
import { PsuAuthenticationRequired, isSessionValid } from '../../domain/sca.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import { newBankId } from '../../domain/bank.js';
import type { AisConsent, NewAisConsent } from '../../store/ais-records.js';
import type { PsuSession } from '../../store/sca-records.js';
import type { BankCore } from '../../core/bank-core.js';
import type { Banks } from '../banks.js';
import { type Answer, type Created, type RecordAnswer, idempotentCreate } from '../idempotent-create.js';
import type { RequestContext } from '../request-context.js';
import type { ScaRequestContext, ScaService } from '../sca-service.js';

/** The consent a read is authorised by: valid, of the PSU the read names, in the session it names. */
export interface ConsentInForce {
  consent: AisConsent & { customerId: string; scaAt: Date };
  resources: ConsentResource[];
  now: Date;
}

/**
 * Account-information consents as the platform offers them: POST /v1/bank-offered-consents answers
 * 201 with the scaRedirect where the PSU chooses accounts; the browser returns with psu-id and
 * tpp-session-id, and the TPP reads with those two headers. A read without a consent in force is
 * answered 401 with an scaRedirect that gives one (docs/ais.md).
 */
export class AisConsents {
  constructor(
    private readonly store: ConsentStore & ScaStore & BindingStore,
    private readonly core: Pick<BankCore, 'findAgreement'>,
    private readonly banks: Banks,
    private readonly sca: ScaService,
  ) {}

  /** body: as parsed; the operation takes none (an empty object is tolerated). schemaProblems: the request schema's. */
  create(request: RequestContext, body: unknown, schemaProblems: Problem[]): Promise<Answer> {
    return idempotentCreate(this.store, 'POST /v1/bank-offered-consents', request, (record) =>
      this.createConsent(request, body, schemaProblems, record),
    );
  }

  private async createConsent(
    request: RequestContext,
    body: unknown,
    schemaProblems: Problem[],
    record: RecordAnswer,
  ): Promise<Created> {
    const { bank } = request;
    const problems = [
      ...schemaProblems,
      ...bodyProblems(body),
      ...psuHeaderProblems(request.psu, { identityRequired: false }),
    ];
    const agreementId = request.psu.corporateId;
    if (
      agreementId !== undefined &&
      problems.length === 0 &&
      (await this.core.findAgreement(bank, agreementId)) === undefined
    ) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: 'header:PSU-Corporate-ID',
        text: `header PSU-Corporate-ID ${agreementId} names no corporate agreement of this bank`,
      });
    }
    if (problems.length > 0) throw ApiError.of(problems);

    const now = await this.banks.now(request.tpp.id);
    // A PSU-ID this TPP has no valid session for names nobody yet: the consent's own SCA establishes
    // one (the PSU who logs in), answered as the 401 challenge a request with such a PSU-ID gets.
    const session =
      request.sca.psuId === undefined ? undefined : await this.validSession(request.tpp.id, request.sca.psuId, now);
    const unknownPsu = request.sca.psuId !== undefined && session === undefined;
    const context = {
      ...request.sca,
      psuId: unknownPsu ? undefined : request.sca.psuId,
      tppSessionId: request.sca.tppSessionId ?? randomUUID(),
    };
    const consent = newConsent(bank, request.tpp.id, context.tppSessionId, agreementId, now);
    const signing = this.sca.prepare('consent', consent.id, context, now);
    if (unknownPsu) {
      await this.store.createChallengeConsent(consent, signing.authorisation);
      throw new PsuAuthenticationRequired(
        signing.link,
        `PSU-ID ${request.sca.psuId} has no valid session with this TPP`,
        [
          {
            category: 'ERROR',
            code: 'PSU_CREDENTIALS_INVALID',
            path: 'header:PSU-ID',
            text: `PSU-ID ${request.sca.psuId} is not known to the bank for this TPP, or its last SCA is older than 180 days; the PSU gives the consent at the scaRedirect, which returns a psu-id`,
          },
        ],
      );
    }
    const answer: Answer = { status: 201, body: { _links: { scaRedirect: { href: signing.link, verbs: ['GET'] } } } };
    const stored = await this.store.createAisConsent(
      consent,
      signing.authorisation,
      record(answer, { kind: 'consent', id: consent.id }),
    );
    return stored === undefined ? { created: answer } : { replayed: stored };
  }

  /**
   * The consent in force for a read: the PSU named by PSU-ID (their session with this TPP), the
   * consent they gave in the session TPP-Session-ID names, its SCA at most 180 days old. Otherwise a
   * 401 whose scaRedirect gives (or renews) the consent in that session, with a tppMessage saying why.
   */
  async inForce(tpp: TppIdentity, sca: ScaRequestContext): Promise<ConsentInForce> {
    const now = await this.banks.now(tpp.id);
    if (sca.psuId === undefined || sca.tppSessionId === undefined) {
      const missing = sca.psuId === undefined ? 'PSU-ID' : 'TPP-Session-ID';
      throw await this.challenge(tpp, sca, undefined, now, {
        category: 'ERROR',
        code: 'CONSENT_UNKNOWN',
        path: `header:${missing}`,
        text: `header ${missing} is required to read account information: send PSU-ID and TPP-Session-ID as the consent's SCA returned them (psu-id, tpp-session-id); the PSU gives a consent at the scaRedirect`,
      });
    }
    // The consent's SCA is the session's latest or earlier: its 180 days decide, below.
    const session = await this.store.findPsuSession(tpp.id, sca.psuId);
    if (session === undefined) {
      throw await this.challenge(tpp, { ...sca, psuId: undefined }, undefined, now, {
        category: 'ERROR',
        code: 'CONSENT_UNKNOWN',
        path: 'header:PSU-ID',
        text: `PSU-ID ${sca.psuId} is not known to the bank for this TPP; the PSU gives a consent at the scaRedirect`,
      });
    }
    const consent = await this.store.findSessionConsent(tpp.id, sca.tppSessionId, session.customerId);
    if (consent === undefined || consent.customerId === undefined || consent.scaAt === undefined) {
      // Ended before its time: refused as the platform refuses a revoked consent, until a new one is given.
      const ended = await this.store.findEndedSessionConsent(tpp.id, sca.tppSessionId, session.customerId);
      if (ended !== undefined) throw consentEnded(ended, sca.tppSessionId);
      throw await this.challenge(tpp, sca, undefined, now, {
        category: 'ERROR',
        code: 'CONSENT_UNKNOWN',
        path: 'header:TPP-Session-ID',
        text: `this PSU has given no consent in TPP-Session-ID ${sca.tppSessionId}; the PSU gives one at the scaRedirect`,
      });
    }
    // The consent's SCA is renewed every 180 days, as every SCA (spec, Authentication 10; domain/sca.ts).
    if (consent.status === 'expired' || !isSessionValid(consent.scaAt, now)) {
      throw await this.challenge(tpp, sca, consent, now, {
        category: 'ERROR',
        code: 'CONSENT_EXPIRED',
        path: 'header:TPP-Session-ID',
        text: `the consent's SCA of ${consent.scaAt.toISOString()} is older than 180 days; the PSU renews it at the scaRedirect (spec, Authentication 10)`,
      });
    }
    return {
      consent: { ...consent, customerId: consent.customerId, scaAt: consent.scaAt },
      resources: await this.store.aisConsentResources(consent.id),
      now,
    };
  }

  /**
   * The 401 that sends the PSU to give (or renew) the consent of the read's session: a new consent in
   * that session (in a new one when the read named none), for the agreement the current one is for,
   * or that PSU-Corporate-ID names.
   */
  async challenge(
    tpp: TppIdentity,
    sca: ScaRequestContext,
    current: AisConsent | undefined,
    now: Date,
    why: TppMessage,
  ): Promise<PsuAuthenticationRequired> {
    const context = { ...sca, tppSessionId: sca.tppSessionId ?? randomUUID() };
    const agreementId = current === undefined ? sca.psuCorporateId : current.agreementId;
    const consent = newConsent(this.banks.of(tpp.id), tpp.id, context.tppSessionId, agreementId, now);
    const signing = this.sca.prepare('consent', consent.id, { ...context, psuCorporateId: agreementId }, now);
    await this.store.createChallengeConsent(consent, signing.authorisation);
    return new PsuAuthenticationRequired(signing.link, why.text ?? 'consent needed', [why]);
  }

  /**
   * DELETE /v1/consents/{consentId}: the TPP ends its own consent (Berlin Group: 204, terminatedByTpp).
   * This bank's consents have no Consent-ID: a consent is named by its session, so `consentId` is the
   * TPP-Session-ID, and every consent of that session in force or waiting for the PSU ends. Sent again,
   * it answers as the first time; a session with no consent of this TPP is 403 CONSENT_UNKNOWN.
   */
  async terminate(tpp: TppIdentity, consentId: string): Promise<void> {
    const now = await this.banks.now(tpp.id);
    if ((await this.store.terminateAisConsents(tpp.id, consentId, now)) !== 'unknown') return;
    const text = `consentId ${consentId} names no consent of this TPP: a consent is named by the TPP-Session-ID it was given in (tpp-session-id on the way back from its SCA)`;
    throw new ApiError('CONSENT_UNKNOWN', text, [{ code: 'CONSENT_UNKNOWN', path: 'path:consentId', text }]);
  }

  private async validSession(tppId: string, psuId: string, now: Date): Promise<PsuSession | undefined> {
    const session = await this.store.findPsuSession(tppId, psuId);
    return session !== undefined && isSessionValid(session.lastScaAt, now) ? session : undefined;
  }
}

/**
 * A read in a session whose consent was ended: 403 CONSENT_UNKNOWN, as the platform answers a revoked
 * consent (research notes 3.1), with no scaRedirect: the TPP asks a new consent if the PSU wants one.
 */
function consentEnded(ended: EndedConsent, tppSessionId: string): ApiError {
  const who =
    ended.ending === 'revokedByPsu'
      ? "the PSU withdrew it on the bank's page"
      : 'this TPP ended it with DELETE /v1/consents/{consentId}';
  const text = `the consent given in TPP-Session-ID ${tppSessionId} is ${ended.ending}: ${who} at ${ended.at.toISOString()}; to read again, ask a new consent with POST /v1/bank-offered-consents, which the PSU gives at its scaRedirect`;
  return new ApiError('CONSENT_UNKNOWN', text, [{ code: 'CONSENT_UNKNOWN', path: 'header:TPP-Session-ID', text }]);
}

function newConsent(
  bank: string,
  tppId: string,
  tppSessionId: string,
  agreementId: string | undefined,
  now: Date,
): NewAisConsent {
  const psuContext: PsuContext = agreementId === undefined ? 'PRIVATE' : 'CORPORATE';
  return { id: newBankId(), bank, tppId, tppSessionId, psuContext, agreementId, createdAt: now };
}

/** The operation takes no body: the PSU chooses the accounts on the bank's page. An empty object is tolerated. */
function bodyProblems(body: unknown): Problem[] {
  if (body === undefined || body === null) return [];
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return [];
  return [
    {
      code: 'FORMAT_ERROR',
      path: '$',
      text: "POST /v1/bank-offered-consents takes no body: the PSU chooses the accounts to share on the bank's page (send no body, or {})",
    },
  ];
}
