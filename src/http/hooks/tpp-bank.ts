import type { preValidationAsyncHookHandler } from 'fastify';
import type { Banks } from '../../services/banks.js';
import { addressGroupOf } from '../../domain/client-address.js';
import { signedRequestOf } from './authenticate.js';

/**
 * preValidation of a signed operation, after authentication: lets the request into its TPP's
 * sandbox bank, which the TPP's first signed request makes (a copy of the default data set;
 * services/banks.ts): a certificate of a CA the operator trusts enters whatever its key, one of the
 * sandbox's self-service CA only with a key bound to the bank (403 otherwise).
 * Production has one bank, made by its migration, and does not register this hook.
 */
export function openTppBank(banks: Banks): preValidationAsyncHookHandler {
  return async (request) => {
    const signed = signedRequestOf(request);
    await banks.enter(signed.tpp.id, signed.keySha256, signed.anchor, addressGroupOf(request.ip));
  };
}
