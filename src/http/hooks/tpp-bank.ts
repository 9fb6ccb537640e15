import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Banks } from '../../services/banks.js';
import { addressGroupOf } from '../../domain/client-address.js';
import { signedRequestOf } from './authenticate.js';
import type { SometimesWaiting } from './waits-only-when-needed.js';
import { routeOptionsOf } from '../route-options.js';

/**
 * A step of a signed operation, after authentication: lets the request into its TPP's
 * sandbox bank, which the TPP's first signed request makes (a copy of the default data set;
 * services/banks.ts): a certificate of a CA the operator trusts enters whatever its key, one of the
 * sandbox's self-service CA only with a key bound to the bank (403 otherwise). The request then
 * passes the bank's gate as a reader until it is answered (leaveBank): it waits while a bulk
 * operation changes the bank. A bulk operation's own request passes the gate alone instead.
 * Production has one bank, made by its migration, and does not take this step.
 */
export function openTppBank(banks: Banks): SometimesWaiting {
  return (request) => {
    const signed = signedRequestOf(request);
    const hold = () =>
      routeOptionsOf(request).config.bulk === true ? undefined : holdBank(banks, request, banks.of(signed.tpp.id));
    const entering = banks.enter(signed.tpp.id, signed.keySha256, signed.anchor, addressGroupOf(request.ip));
    return entering === undefined ? hold() : entering.then(hold);
  };
}

/** Passes the bank's gate as a reader for this request, until leaveBank: a promise only when it must wait. */
export function holdBank(banks: Banks, request: FastifyRequest, bank: string): Promise<void> | undefined {
  const release = banks.gate.read(bank);
  if (!(release instanceof Promise)) {
    request.bankRelease = release;
    return undefined;
  }
  return release.then((passed) => {
    request.bankRelease = passed;
  });
}

/** onResponse: the request's bank gate released, if it held one. */
export function leaveBank(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  releaseBank(request);
  done();
}

/** onRequestAbort: leaveBank for a request whose client went away. */
export function leaveBankOnAbort(request: FastifyRequest, done: () => void): void {
  releaseBank(request);
  done();
}

function releaseBank(request: FastifyRequest): void {
  const release = request.bankRelease;
  request.bankRelease = null;
  release?.();
}
