import { Ajv, _ } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isPsuAddress } from '../../domain/psu-address.js';
import { isHttpAddress } from '../../domain/redirect-uri.js';

/** Ajv as the route schemas need it: the annotations they carry and the formats they name. */

/** Annotation that says in words what a pattern, enum, format or set of alternatives requires. */
export const RULE_TEXT = 'x-rule-text';
/** Format of an absolute http or https address that the server can later parse and extend. */
export const HTTP_ADDRESS_FORMAT = 'http-address';
/** Annotation on an object schema: the error code when one of its required properties is missing (KID_MISSING). */
export const REQUIRED_CODE = 'x-required-code';

/** Format of PSU-IP-Address: an IP address a PSU's device can have (domain/psu-address.ts). */
export const PSU_ADDRESS_FORMAT = 'psu-ip-address';

/** An address the WHATWG URL parser reads as http or https (TPP-Redirect-URI): a pattern cannot say it. */
const httpAddressFormat = { type: 'string' as const, validate: isHttpAddress };

/** An IP address that can be a PSU's: a pattern cannot say which ranges are never one. */
const psuAddressFormat = { type: 'string' as const, validate: isPsuAddress };

/** The formats the schemas use, by name: what precompiled validators are given (their code names them `formats`). */
export const FORMATS: Record<string, unknown> = {
  ...fullFormats,
  [HTTP_ADDRESS_FORMAT]: httpAddressFormat,
  [PSU_ADDRESS_FORMAT]: psuAddressFormat,
};

/** `standalone`: keeps each validator's source, with formats named as the precompiled code finds them (scripts/precompile-schemas.ts). */
export function createAjv(coerceTypes: boolean, checkSchemas: boolean, standalone = false): Ajv {
  // Checking schemas against the JSON Schema meta-schema is a noticeable part of every start
  // (docs/decisions/0028); the route schemas are fixed, so the tests check
  // them (checkSchemas) and production does not.
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: false,
    removeAdditional: false,
    verbose: false,
    messages: false,
    strict: true,
    strictRequired: false,
    validateSchema: checkSchemas,
    ...(standalone ? { code: { source: true, formats: _`formats` } } : {}),
  });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  ajv.addKeyword({ keyword: RULE_TEXT, schemaType: 'string' });
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: REQUIRED_CODE, schemaType: 'string' });
  ajv.addFormat(HTTP_ADDRESS_FORMAT, httpAddressFormat);
  ajv.addFormat(PSU_ADDRESS_FORMAT, psuAddressFormat);
  return ajv;
}
