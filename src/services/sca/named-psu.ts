import type { Customer } from '../../domain/bank.js';
import { type NationalIdKey, hashNationalId } from '../../domain/psu.js';
import type { Authorisation, ScaPayment } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';

/** A PSU as a request named them: by PSU-ID, or by the keyed hash of their national identity number. */
export interface NamedPsu {
  psuId: string | undefined;
  hash: string | undefined;
}

/** The PSUs the authorisation's request and each of its payments named. */
export function namedPsus(authorisation: Authorisation, payments: readonly ScaPayment[]): NamedPsu[] {
  return [
    { psuId: authorisation.psuId, hash: authorisation.psuNationalIdHash },
    ...payments.map((p) => ({ psuId: p.psuId, hash: p.psuNationalIdHash })),
  ];
}

/** spec: the PSU who signs must be the PSU named at initiation (by PSU-ID or national identity number). */
export async function isNamedPsu(
  store: Pick<Store, 'findPsuSession'>,
  nationalIdKey: NationalIdKey,
  authorisation: Authorisation,
  payments: readonly ScaPayment[],
  customer: Customer,
): Promise<boolean> {
  for (const { psuId, hash } of namedPsus(authorisation, payments)) {
    if (psuId !== undefined) {
      const session = await store.findPsuSession(authorisation.tppId, psuId);
      if (session === undefined || session.customerId !== customer.id) return false;
    } else if (hash !== undefined && hash !== hashNationalId(nationalIdKey, customer.customerNumber)) {
      return false;
    }
  }
  return true;
}
