import type { FastifyInstance } from 'fastify';
import type { SandboxDataService } from '../../services/sandbox-data-service.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxCreateHeaders, sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import {
  DELETED,
  SANDBOX_CREATE_AUTH,
  SANDBOX_READ_AUTH,
  SANDBOX_TAGS,
  created,
  sandboxParams,
} from './sandbox-route-parts.js';

type AgreementParams = { Params: { agreementId: string } };

/** The sandbox's corporate agreements: create, read, delete. */
export function registerSandboxAgreementRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  app.post(
    '/v1/sandbox/agreements',
    {
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: "Create a corporate agreement: people engaged on the owner's accounts with roles VIEW and REGISTER",
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxAgreementCreate#' },
        response: { 201: { $ref: 'SandboxAgreement#' }, ...errorResponses(413, 415) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await sandbox.agreements.createAgreement(contextOf(request).tpp, request.body, request.schemaProblems ?? []),
      ),
  );

  app.get<AgreementParams>(
    '/v1/sandbox/agreements/:agreementId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read a corporate agreement',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('agreementId'),
        response: { 200: { $ref: 'SandboxAgreement#' }, ...errorResponses(404) },
      },
    },
    async (request) => sandbox.agreements.readAgreement(contextOf(request).tpp, request.params.agreementId),
  );

  app.delete<AgreementParams>(
    '/v1/sandbox/agreements/:agreementId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Delete a corporate agreement (the accounts stay)',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('agreementId'),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await sandbox.agreements.deleteAgreement(contextOf(request).tpp, request.params.agreementId);
      return reply.code(204).send();
    },
  );
}
