import { COUNTRIES } from './country.js';
import { ORGANISATION_IDENTIFIER_MAX_LENGTH } from './limits.js';

/**
 * The organizationIdentifier of a PSD2 certificate (ETSI TS 119 495, clause 5.2.1): "PSD", the
 * country of the national competent authority (ISO 3166-1 alpha-2), "-", the authority's identifier
 * (2 to 8 capital letters), "-", the authorisation number the authority gave the TPP (ETSI puts no
 * bound on its characters; here printable ASCII without spaces). Example: PSDNO-FSA-933012867. The
 * bank knows a TPP by it, and the sandbox keeps a bank per TPP under it.
 */
export const ORGANISATION_IDENTIFIER_PATTERN = '^PSD([A-Z]{2})-([A-Z]{2,8})-([!-~]+)$';

export const ORGANISATION_IDENTIFIER_RULE =
  "PSD, the authority's country (ISO 3166), '-', the authority's identifier (2 to 8 capital letters), '-', the authorisation number (printable characters, no spaces), such as PSDNO-FSA-933012867";

const SHAPE = new RegExp(ORGANISATION_IDENTIFIER_PATTERN);

export interface OrganisationIdentifier {
  /** The national competent authority's country, such as NO. */
  country: string;
  /** The authority's identifier with its country (NCAId of the PSD2 QCStatement), such as NO-FSA. */
  ncaId: string;
}

/** The parts of an identifier, or why it cannot be one (a text naming what is wrong). */
export function parseOrganisationIdentifier(value: string): OrganisationIdentifier | string {
  if (value.length > ORGANISATION_IDENTIFIER_MAX_LENGTH)
    return `has ${value.length} characters; an organizationIdentifier has at most ${ORGANISATION_IDENTIFIER_MAX_LENGTH}`;
  const match = SHAPE.exec(value);
  if (match === null) return `'${value}' is not a PSD2 organizationIdentifier: ${ORGANISATION_IDENTIFIER_RULE}`;
  const country = match[1]!;
  if (!(COUNTRIES as readonly string[]).includes(country))
    return `'${value}' names the authority's country '${country}', which is no ISO 3166 country code`;
  return { country, ncaId: `${country}-${match[2]!}` };
}
