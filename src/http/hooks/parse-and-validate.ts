import type { preValidationAsyncHookHandler } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import type { ApiRouteConfig } from '../fastify-types.js';
import { turn } from '../body/turn.js';
import type { RouteValidator } from '../schema-compiler/route-validator.js';
import { parseBody } from './request-body.js';

/**
 * preValidation of an API operation, after authentication on a signed one (so a client that is not
 * authenticated learns nothing about its body): the JSON body is parsed, and headers, parameters,
 * query and body are validated at once against the route's schema. The problems are answered 400
 * here, or handed to the handler to report with its own (ApiRouteConfig.deferSchemaProblems).
 */
export function parseAndValidate(
  api: ApiRouteConfig,
  validator: RouteValidator | undefined,
): preValidationAsyncHookHandler {
  return async (request) => {
    const large = await parseBody(request);
    const problems =
      (await validator?.(
        { headers: request.headers, params: request.params, query: request.query, body: request.body },
        large,
      )) ?? [];
    if (large) await turn();
    if (api.deferSchemaProblems === true) request.schemaProblems = problems;
    else if (problems.length > 0) throw ApiError.of(problems);
  };
}
