import type * as AjvLibrary from 'ajv';
import type addFormats from 'ajv-formats';
import { precompiledRequire } from './precompiled.js';
import {
  HTTP_ADDRESS_FORMAT,
  NOTIFICATION_CONTENT_FORMAT,
  NOTIFICATION_URI_FORMAT,
  PSU_ADDRESS_FORMAT,
  REQUIRED_CODE,
  RULE_TEXT,
  httpAddressFormat,
  notificationContentFormat,
  notificationUriFormat,
  psuAddressFormat,
} from './schema-formats.js';

/**
 * Ajv as the route schemas need it. Ajv and its formats are required when a schema is first
 * compiled, not when the server loads: a built server runs every validator from precompiled code,
 * which needs only Ajv's runtime helpers (precompiled.ts).
 */
let library: { ajv: typeof AjvLibrary; addFormats: typeof addFormats } | undefined;
function ajvLibrary(): { ajv: typeof AjvLibrary; addFormats: typeof addFormats } {
  return (library ??= {
    ajv: precompiledRequire('ajv') as typeof AjvLibrary,
    addFormats: precompiledRequire('ajv-formats') as typeof addFormats,
  });
}

/** `standalone`: keeps each validator's source, with formats named as the precompiled code finds them (scripts/precompile-schemas.ts). */
export function createAjv(coerceTypes: boolean, checkSchemas: boolean, standalone = false): AjvLibrary.Ajv {
  const {
    ajv: { Ajv, _ },
    addFormats,
  } = ajvLibrary();
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
  (addFormats as unknown as (ajv: AjvLibrary.Ajv) => void)(ajv);
  ajv.addKeyword({ keyword: RULE_TEXT, schemaType: 'string' });
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: REQUIRED_CODE, schemaType: 'string' });
  ajv.addFormat(HTTP_ADDRESS_FORMAT, httpAddressFormat);
  ajv.addFormat(PSU_ADDRESS_FORMAT, psuAddressFormat);
  ajv.addFormat(NOTIFICATION_URI_FORMAT, notificationUriFormat);
  ajv.addFormat(NOTIFICATION_CONTENT_FORMAT, notificationContentFormat);
  return ajv;
}
