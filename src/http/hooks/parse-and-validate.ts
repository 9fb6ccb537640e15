import type { FastifyRequest } from 'fastify';
import { ApiError, type Problem } from '../../domain/api-error.js';
import type { ApiRouteConfig } from '../fastify-types.js';
import { turn } from '../body/turn.js';
import type { RequestParts, RouteValidator } from '../schema-compiler/route-validator.js';
import { isLargeBody, parseLargeBody, parseSmallBody } from './request-body.js';
import type { SometimesWaiting } from './waits-only-when-needed.js';

/**
 * preValidation of an API operation, after authentication on a signed one (so a client that is not
 * authenticated learns nothing about its body): the JSON body is parsed, and headers, parameters,
 * query and body are validated at once against the route's schema. The problems are answered 400
 * here, or handed to the handler to report with its own (ApiRouteConfig.deferSchemaProblems). A
 * request without a large body is done in one step; a large body's steps take turns.
 */
export function parseAndValidate(api: ApiRouteConfig, validator: RouteValidator | undefined): SometimesWaiting {
  return (request) => {
    if (isLargeBody(request)) return parseAndValidateInTurns(request, api, validator);
    parseSmallBody(request);
    settle(request, api, validator?.now(partsOf(request)) ?? []);
    return undefined;
  };
}

async function parseAndValidateInTurns(
  request: FastifyRequest,
  api: ApiRouteConfig,
  validator: RouteValidator | undefined,
): Promise<void> {
  await parseLargeBody(request);
  const problems = (await validator?.(partsOf(request))) ?? [];
  await turn();
  settle(request, api, problems);
}

function partsOf(request: FastifyRequest): RequestParts {
  return { headers: request.headers, params: request.params, query: request.query, body: request.body };
}

function settle(request: FastifyRequest, api: ApiRouteConfig, problems: Problem[]): void {
  if (api.deferSchemaProblems === true) request.schemaProblems = problems;
  else if (problems.length > 0) throw ApiError.of(problems);
}
