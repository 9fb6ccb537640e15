/**
 * The PSD2 roles of a payment service provider (ETSI TS 119 495, clause 5.1), carried in the
 * certificate's PSD2 QCStatement. Each role has an OID and a name; both are in the certificate.
 */
export const PSP_ROLES = {
  PSP_AS: '0.4.0.19495.1.1',
  PSP_PI: '0.4.0.19495.1.2',
  PSP_AI: '0.4.0.19495.1.3',
  PSP_IC: '0.4.0.19495.1.4',
} as const;

export type PspRole = keyof typeof PSP_ROLES;

export const PSP_ROLE_NAMES = Object.keys(PSP_ROLES) as PspRole[];

export function isPspRole(value: string): value is PspRole {
  return Object.hasOwn(PSP_ROLES, value);
}

export function roleOfOid(oid: string): PspRole | undefined {
  return PSP_ROLE_NAMES.find((role) => PSP_ROLES[role] === oid);
}

/** The TPP as the bank knows it: identified by the organisation identifier of its certificate. */
export interface TppIdentity {
  /** organizationIdentifier (2.5.4.97) of the certificate subject, e.g. PSDNO-FSA-933012867. */
  id: string;
  name: string;
  roles: PspRole[];
  /** Name and id of the national competent authority that registered the TPP. */
  ncaName: string;
  ncaId: string;
}
