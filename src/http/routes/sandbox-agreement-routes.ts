import type { FastifyInstance } from 'fastify';
import type { SandboxDataService } from '../../services/sandbox-data-service.js';
import { registerSandboxCreate, registerSandboxReadAndDelete } from './sandbox-resource-routes.js';

/** The sandbox's corporate agreements: create, read, delete. */
export function registerSandboxAgreementRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const agreements = sandbox.agreements;
  registerSandboxCreate(app, {
    collection: 'agreements',
    summary: "Create a corporate agreement: people engaged on the owner's accounts with roles VIEW and REGISTER",
    body: 'SandboxAgreementCreate#',
    resource: 'SandboxAgreement#',
    errors: [415],
    create: (ctx, body, problems) => agreements.createAgreement(ctx.tpp, body, problems),
  });
  registerSandboxReadAndDelete(app, {
    collection: 'agreements',
    param: 'agreementId',
    resource: 'SandboxAgreement#',
    readSummary: 'Read a corporate agreement',
    deleteSummary: 'Delete a corporate agreement (the accounts stay)',
    read: (tpp, id) => agreements.readAgreement(tpp, id),
    remove: (tpp, id) => agreements.deleteAgreement(tpp, id),
  });
}
