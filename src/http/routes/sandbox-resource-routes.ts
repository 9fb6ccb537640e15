import type { FastifyInstance } from 'fastify';
import type { Problem } from '../../domain/api-error.js';
import type { Json } from '../../domain/json.js';
import { BODY_LIMIT_BYTES, MAX_SANDBOX_TRANSACTIONS_PER_REQUEST } from '../../domain/limits.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import type { ListQuery } from '../../services/sandbox-data-service.js';
import type { RequestContext } from '../../services/request-context.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxCreateHeaders, sandboxReadHeaders, transactionListQuery } from '../schemas/sandbox-schemas.js';
import {
  DELETED,
  SANDBOX_CREATE_AUTH,
  SANDBOX_READ_AUTH,
  SANDBOX_TAGS,
  created,
  sandboxParams,
  SANDBOX_BANK_READ_AUTH,
} from './sandbox-route-parts.js';

/**
 * The shapes every sandbox test-data resource shares, so that a resource declares its paths, schemas, texts and
 * service calls, and its create, read, delete and transactions answer, authenticate and document alike
 * (the scenarios' and snapshots' read and delete too).
 */

type Params = { Params: Record<string, string> };

/** `POST /v1/sandbox/{collection}`: the lenient create, whose schema problems become the service's warnings. */
export interface SandboxCreate {
  collection: string;
  summary: string;
  /** `$id` of the body's schema, and of the created resource's. */
  body: string;
  resource: string;
  errors: number[];
  create: (ctx: RequestContext, body: unknown, schemaProblems: Problem[]) => Promise<Json>;
}

export function registerSandboxCreate(app: FastifyInstance, r: SandboxCreate): void {
  app.post(
    `/v1/sandbox/${r.collection}`,
    {
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: r.summary,
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: r.body },
        response: { 201: { $ref: r.resource }, ...errorResponses(...r.errors) },
      },
    },
    async (request, reply) =>
      created(reply, await r.create(contextOf(request), request.body, request.schemaProblems ?? [])),
  );
}

/** `PATCH /v1/sandbox/{collection}/:{param}`: a test changes what a scenario needs of a resource (docs/scenarios.md). */
export interface SandboxUpdate {
  collection: string;
  param: string;
  summary: string;
  description: string;
  body: string;
  resource: string;
  update: (tpp: TppIdentity, id: string, body: unknown, schemaProblems: Problem[]) => Promise<Json>;
}

export function registerSandboxUpdate(app: FastifyInstance, r: SandboxUpdate): void {
  app.patch<Params>(
    `/v1/sandbox/${r.collection}/:${r.param}`,
    {
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: r.summary,
        description: r.description,
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        params: sandboxParams(r.param),
        body: { $ref: r.body },
        response: { 200: { $ref: r.resource }, ...errorResponses(404, 415) },
      },
    },
    async (request) =>
      r.update(contextOf(request).tpp, request.params[r.param] ?? '', request.body, request.schemaProblems ?? []),
  );
}

/** `GET` and `DELETE /v1/sandbox/{collection}/:{param}`. */
export interface SandboxReadAndDelete {
  collection: string;
  param: string;
  resource: string;
  readSummary: string;
  deleteSummary: string;
  read: (tpp: TppIdentity, id: string) => Promise<unknown>;
  remove: (tpp: TppIdentity, id: string) => Promise<void>;
  /** Its deletion changes the bank as a whole (a snapshot, a scenario): Date required, X-Request-ID bound strictly (issue 40). */
  wholeBank?: boolean;
}

export function registerSandboxReadAndDelete(app: FastifyInstance, r: SandboxReadAndDelete): void {
  const path = `/v1/sandbox/${r.collection}/:${r.param}`;
  app.get<Params>(
    path,
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: r.readSummary,
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams(r.param),
        response: { 200: { $ref: r.resource }, ...errorResponses(404) },
      },
    },
    async (request) => r.read(contextOf(request).tpp, request.params[r.param] ?? ''),
  );

  registerSandboxDelete(app, {
    collection: r.collection,
    param: r.param,
    summary: r.deleteSummary,
    remove: r.remove,
    ...(r.wholeBank === true ? { wholeBank: true } : {}),
  });
}

/** `DELETE /v1/sandbox/{collection}/:{param}`: 204, or 404 when the TPP's bank has no such one. */
export interface SandboxDelete {
  collection: string;
  param: string;
  summary: string;
  remove: (tpp: TppIdentity, id: string) => Promise<void>;
  wholeBank?: boolean;
}

export function registerSandboxDelete(app: FastifyInstance, r: SandboxDelete): void {
  app.delete<Params>(
    `/v1/sandbox/${r.collection}/:${r.param}`,
    {
      config: { api: { auth: r.wholeBank === true ? SANDBOX_BANK_READ_AUTH : SANDBOX_READ_AUTH } },
      schema: {
        summary: r.summary,
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams(r.param),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await r.remove(contextOf(request).tpp, request.params[r.param] ?? '');
      return reply.code(204).send();
    },
  );
}

/** `POST` (a list), `GET` (a page) and `GET …/:transactionId` of `/v1/sandbox/{collection}/:{param}/transactions`. */
export interface SandboxTransactions {
  collection: string;
  param: string;
  /** `$id` of a posted transaction's schema, and of a stored one's. */
  create: string;
  resource: string;
  summaries: { post: string; list: string; read: string };
  add: (tpp: TppIdentity, owner: string, body: unknown, schemaProblems: Problem[]) => Promise<unknown[]>;
  list: (tpp: TppIdentity, owner: string, query: ListQuery) => Promise<unknown>;
  read: (tpp: TppIdentity, owner: string, transactionId: string) => Promise<unknown>;
}

export function registerSandboxTransactions(app: FastifyInstance, r: SandboxTransactions): void {
  const path = `/v1/sandbox/${r.collection}/:${r.param}/transactions`;
  const ownerOf = (params: Record<string, string>) => params[r.param] ?? '';
  app.post<Params>(
    path,
    {
      bodyLimit: BODY_LIMIT_BYTES,
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: r.summaries.post,
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        params: sandboxParams(r.param),
        body: { type: 'array', minItems: 1, maxItems: MAX_SANDBOX_TRANSACTIONS_PER_REQUEST, items: { $ref: r.create } },
        response: { 201: { type: 'array', items: { $ref: 'SandboxCreated#' } }, ...errorResponses(404, 415) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await r.add(contextOf(request).tpp, ownerOf(request.params), request.body, request.schemaProblems ?? []),
      ),
  );

  app.get<Params & { Querystring: ListQuery }>(
    path,
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: r.summaries.list,
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams(r.param),
        querystring: transactionListQuery,
        response: { 200: { type: 'array', items: { $ref: r.resource } }, ...errorResponses(404) },
      },
    },
    async (request) => r.list(contextOf(request).tpp, ownerOf(request.params), request.query),
  );

  app.get<Params>(
    `${path}/:transactionId`,
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: r.summaries.read,
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams(r.param, 'transactionId'),
        response: { 200: { $ref: r.resource }, ...errorResponses(404) },
      },
    },
    async (request) => r.read(contextOf(request).tpp, ownerOf(request.params), request.params['transactionId'] ?? ''),
  );
}
