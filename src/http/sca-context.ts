import type { FastifyRequest } from 'fastify';
import { type NationalIdKey, hashNationalId } from '../domain/psu.js';
import type { ScaRequestContext } from '../services/sca-service.js';

/**
 * What a TPP's request tells the SCA: the PSU, their context and preferences, and where to return.
 * The national identity number is kept only as its keyed hash.
 */
export function scaContextOf(request: FastifyRequest, nationalIdKey: NationalIdKey): ScaRequestContext {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const nationalId = header('x-psu-identity');
  return {
    tppId: request.tpp!.id,
    tppName: request.tpp!.name,
    psuId: header('psu-id')?.toLowerCase(),
    psuNationalIdHash: nationalId === undefined ? undefined : hashNationalId(nationalIdKey, nationalId),
    psuCorporateId: header('psu-corporate-id'),
    psuContext: header('psu-context'),
    authMethodPreferred: header('x-psu-authmethod-preferred'),
    redirectPreferred: header('tpp-redirect-preferred') !== 'false',
    tppRedirectUri: header('tpp-redirect-uri'),
    tppSessionId: header('tpp-session-id'),
  };
}
