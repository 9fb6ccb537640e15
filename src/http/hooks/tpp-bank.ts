import type { preValidationAsyncHookHandler } from 'fastify';
import type { Banks } from '../../services/banks.js';
import { signedRequestOf } from './authenticate.js';

/**
 * preValidation of a signed operation, after authentication: a TPP's first signed request in the
 * sandbox makes its bank (a copy of the default data set; services/banks.ts). Production has one
 * bank, made by its migration, and does not register this hook.
 */
export function openTppBank(banks: Banks): preValidationAsyncHookHandler {
  return async (request) => {
    await banks.ensure(signedRequestOf(request).tpp.id);
  };
}
