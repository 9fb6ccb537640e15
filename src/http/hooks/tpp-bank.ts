import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import type { Banks } from '../../services/banks.js';
import { addressGroupOf } from '../../domain/client-address.js';
import { signedRequestOf } from './authenticate.js';
import { waitsOnlyWhenNeeded } from './waits-only-when-needed.js';
import { routeOptionsOf } from '../route-options.js';

/** The gate each request of a bank holds until it is answered (services/bank-gate.ts). */
const held = new WeakMap<FastifyRequest, () => void>();

/**
 * preValidation of a signed operation, after authentication: lets the request into its TPP's
 * sandbox bank, which the TPP's first signed request makes (a copy of the default data set;
 * services/banks.ts): a certificate of a CA the operator trusts enters whatever its key, one of the
 * sandbox's self-service CA only with a key bound to the bank (403 otherwise). The request then
 * passes the bank's gate as a reader until it is answered (leaveBank): it waits while a bulk
 * operation changes the bank. A bulk operation's own request passes the gate alone instead.
 * Production has one bank, made by its migration, and does not register this hook.
 */
export function openTppBank(banks: Banks): preValidationHookHandler {
  return waitsOnlyWhenNeeded((request) => {
    const signed = signedRequestOf(request);
    const hold = () =>
      routeOptionsOf(request).config.bulk === true ? undefined : holdBank(banks, request, banks.of(signed.tpp.id));
    const entering = banks.enter(signed.tpp.id, signed.keySha256, signed.anchor, addressGroupOf(request.ip));
    return entering === undefined ? hold() : entering.then(hold);
  });
}

/** Passes the bank's gate as a reader for this request, until leaveBank: a promise only when it must wait. */
export function holdBank(banks: Banks, request: FastifyRequest, bank: string): Promise<void> | undefined {
  const release = banks.gate.read(bank);
  if (!(release instanceof Promise)) {
    held.set(request, release);
    return undefined;
  }
  return release.then((passed) => {
    held.set(request, passed);
  });
}

/** onResponse and onRequestAbort: the request's bank gate released, if it held one. */
export async function leaveBank(request: FastifyRequest): Promise<void> {
  held.get(request)?.();
  held.delete(request);
}
