import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { CHECKED_BY_AUTHENTICATION } from '../schemas/header-schemas.js';
import type { NationalIdKey } from '../../domain/psu.js';
import type { AuthRequirement, TppAuthenticator } from '../../security/tpp-authenticator.js';
import type { Banks } from '../../services/banks.js';
import type { RequestReplayGuard } from '../../services/request-replay-guard.js';
import type { RouteValidator } from '../schema-compiler/route-validator.js';
import { authenticate } from './authenticate.js';
import { parseAndValidate } from './parse-and-validate.js';
import { guardReplay } from './replay-guard.js';
import { buildRequestContext } from './request-context.js';
import { leaveBank, leaveBankOnAbort, openTppBank } from './tpp-bank.js';
import { type SometimesWaiting, inSequence, waitsOnlyWhenNeeded } from './waits-only-when-needed.js';
import { type OperationCatalogue, answerBankFault } from './scenario-faults.js';
import type { SandboxScenarios } from '../../services/sandbox/sandbox-scenarios.js';

/** What the hooks of the API operations need. */
export interface OperationHookDependencies {
  authenticator: TppAuthenticator;
  banks: Banks;
  replayGuard: RequestReplayGuard;
  /** The installation's key for national identity numbers, hashed once a request (request-context.ts). */
  nationalIdKey: NationalIdKey;
  /** Compiles the validator of a route's schema; every validator compiled is kept for the warm-up. */
  compileValidator: (schema: NonNullable<RouteOptions['schema']>) => RouteValidator;
  /** Sandbox only: the armed bank faults, and the catalogue of the operations they may answer for (docs/scenarios.md). */
  scenarios?: { service: SandboxScenarios; catalogue: OperationCatalogue } | undefined;
}

/**
 * Gives each API operation its steps as it is added, one job each, in the order they run:
 * authenticate → the TPP's bank (sandbox) → its armed fault (sandbox) → replay guard → parse and
 * validate → the request context. The order decides which refusal a request gets when it has several
 * (a bad signature before a reused X-Request-ID before a bad body), and a client that is not
 * authenticated learns nothing about its body. The steps run as one preValidation hook: each hook
 * costs every request Fastify's hook machinery, and the signed ones are all waiting only now and then
 * (docs/decisions/0362). Operations that are not signed (the documentation, a sandbox certificate) are
 * parsed and validated only. The global hooks (app.ts) run before these: onRequest limits and
 * negotiation, the raw body kept for the Digest.
 */
export function registerOperationHooks(app: FastifyInstance, deps: OperationHookDependencies): void {
  app.addHook('onRoute', (route) => {
    const api = route.config?.api;
    if (api === undefined) return;
    const schema = route.schema === undefined || api.auth === null ? route.schema : withoutCheckedHeaders(route.schema);
    const validator = schema === undefined ? undefined : deps.compileValidator(schema);
    const steps =
      api.auth === null
        ? [parseAndValidate(api, validator)]
        : [
            ...signedSteps(api.auth, deps, bankFaults(route, deps)),
            parseAndValidate(api, validator),
            buildRequestContext(deps.banks, deps.nationalIdKey),
          ];
    route.preValidation = [waitsOnlyWhenNeeded(inSequence(steps)), ...asList(route.preValidation)];
    if (api.auth !== null && deps.banks.mode === 'sandbox') {
      route.onResponse = [...asList(route.onResponse), leaveBank];
      route.onRequestAbort = [...asList(route.onRequestAbort), leaveBankOnAbort];
    }
  });
}

function signedSteps(auth: AuthRequirement, deps: OperationHookDependencies, faults: SometimesWaiting[]) {
  // Production has one bank, made by its migration: no step to make a TPP's.
  const bank = deps.banks.mode === 'sandbox' ? [openTppBank(deps.banks)] : [];
  // Only the sandbox explains a refused signature; production's answers say no more than the refusal.
  const explain = deps.banks.mode === 'sandbox';
  return [authenticate(deps.authenticator, auth, explain), ...bank, ...faults, guardReplay(deps.replayGuard, auth)];
}

/** The sandbox's bank-fault step of a signed operation of the bank's API; none in production, none for the sandbox's own. */
function bankFaults(route: RouteOptions, deps: OperationHookDependencies): SometimesWaiting[] {
  if (deps.scenarios === undefined) return [];
  const operationId = deps.scenarios.catalogue.note(route.method, route.url);
  return operationId === undefined ? [] : [answerBankFault(deps.scenarios.service, operationId)];
}

/** A signed operation's schema as its validator takes it: without the headers the authentication checked whole. */
function withoutCheckedHeaders(schema: FastifySchema): FastifySchema {
  const headers = schema.headers as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  if (headers?.properties === undefined) return schema;
  const kept = (name: string) => !CHECKED_BY_AUTHENTICATION.has(name);
  return {
    ...schema,
    headers: {
      ...headers,
      properties: Object.fromEntries(Object.entries(headers.properties).filter(([name]) => kept(name))),
      ...(headers.required === undefined ? {} : { required: headers.required.filter(kept) }),
    },
  };
}

function asList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
