import type { FastifyInstance } from 'fastify';
import { SESSION_ID_MAX_LENGTH } from '../../domain/limits.js';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';
import type { AisService } from '../../services/ais-service.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { NOTIFICATION_ANSWER_HEADERS, consentCreateHeaders, consentDeleteHeaders } from '../schemas/header-schemas.js';
import { contextOf } from '../hooks/request-context.js';
import { answerBody } from './answer-reply.js';

/** Account information needs the PSD2 role PSP_AI; the consent takes no body, so no Digest is required. */
export const AIS_AUTH: AuthRequirement = { role: 'PSP_AI', digestRequired: false };

/**
 * POST /v1/bank-offered-consents: the platform's consent, given on the bank's page; DELETE
 * /v1/consents/{consentId}: the TPP ends it (docs/ais.md).
 */
export function registerAisConsentRoutes(app: FastifyInstance, ais: AisService): void {
  app.post(
    '/v1/bank-offered-consents',
    {
      config: { api: { auth: AIS_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: "Ask the PSU for access to their accounts: the PSU chooses them on the bank's page",
        description:
          "Takes no body. 201 with _links.scaRedirect; after the SCA the browser returns to TPP-Redirect-URI with psu-id and tpp-session-id (the TPP's TPP-Session-ID, or one the bank made when it sent none), which the TPP sends as PSU-ID and TPP-Session-ID on every read. There is no Consent-ID. PSU-Context CORPORATE with PSU-Corporate-ID shares accounts of that agreement on which the PSU has the role VIEW. A PSU-ID without a valid session is answered 401 with an scaRedirect that gives the consent.",
        tags: ['account-information'],
        headers: consentCreateHeaders(),
        response: {
          201: { $ref: 'BankOfferedConsentCreated#', headers: NOTIFICATION_ANSWER_HEADERS },
          ...errorResponses(403, 409),
        },
      },
    },
    async (request, reply) => {
      const answer = await ais.consents.create(contextOf(request), request.body, request.schemaProblems ?? []);
      return answerBody(reply, answer);
    },
  );

  app.delete<{ Params: { consentId: string } }>(
    '/v1/consents/:consentId',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary: 'End a consent this TPP was given (terminatedByTpp)',
        description:
          "consentId is the TPP-Session-ID the consent was given in (this bank's consents have no Consent-ID): every consent of that session in force, or waiting for the PSU, ends. 204, also when sent again; reads in the session are then 403 CONSENT_UNKNOWN until the PSU gives a new consent. A session with no consent of this TPP is 403 CONSENT_UNKNOWN.",
        tags: ['account-information'],
        headers: consentDeleteHeaders(),
        params: {
          type: 'object',
          required: ['consentId'],
          properties: { consentId: { type: 'string', minLength: 1, maxLength: SESSION_ID_MAX_LENGTH } },
        },
        response: { 204: { description: 'Ended (terminatedByTpp)', type: 'null' }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      await ais.consents.terminate(contextOf(request).tpp, request.params.consentId);
      return reply.code(204).send();
    },
  );
}
