import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ERROR_CATALOGUE,
  TPP_MESSAGE_CODES,
  TPP_MESSAGE_CODE_OF,
  tppMessageCodeOf,
} from '../../src/domain/error-catalogue.js';

/** spec, Errors: "Values allowed in the `code` of a TppMessage", copied as the specification writes them. */
const SPEC_LIST =
  'SYSTEM_ERROR, BAD_REQUEST, FORBIDDEN, NOT_FOUND, CONFLICT, HTTP_HEADER_REQUIRED, QUERY_PARAMETER_REQUIRED, SCA_NOT_FOUND, SCA_EXPIRED, SCA_INVALID, FORMAT_ERROR, RESOURCE_UNKNOWN, PSU_CREDENTIALS_INVALID, CONSENT_UNKNOWN, CONSENT_INVALID, CONSENT_EXPIRED, ACCESS_EXCEEDED, PRODUCT_UNKNOWN, PRODUCT_INVALID, KID_MISSING, KID_INVALID, PAYMENT_FAILED, EXECUTION_DATE_INVALID'.split(
    ', ',
  );

describe('TppMessage codes', () => {
  it("are exactly the specification's list, in its order", () => {
    assert.deepEqual([...TPP_MESSAGE_CODES], SPEC_LIST);
  });

  it('every code the server can answer with is published as a code of the list', () => {
    for (const code of Object.keys(ERROR_CATALOGUE)) {
      assert.ok(
        SPEC_LIST.includes(tppMessageCodeOf(code)),
        `${code} is published as ${tppMessageCodeOf(code)}, which is not in the specification's list`,
      );
    }
  });

  it('a code of the list is published as itself; every other catalogue code has its own row, and no row is spare', () => {
    for (const code of SPEC_LIST) assert.equal(tppMessageCodeOf(code), code);
    const outside = Object.keys(ERROR_CATALOGUE)
      .filter((code) => !SPEC_LIST.includes(code))
      .sort();
    assert.deepEqual(Object.keys(TPP_MESSAGE_CODE_OF).sort(), outside);
  });

  it('maps the Berlin Group codes the server uses as the table in docs/decisions/0169 records', () => {
    assert.deepEqual(
      { ...TPP_MESSAGE_CODE_OF },
      {
        REFERENCE_MIX_INVALID: 'BAD_REQUEST',
        CERTIFICATE_INVALID: 'FORBIDDEN',
        CERTIFICATE_EXPIRED: 'FORBIDDEN',
        CERTIFICATE_REVOKED: 'FORBIDDEN',
        SIGNATURE_INVALID: 'BAD_REQUEST',
        ROLE_INVALID: 'FORBIDDEN',
        REQUESTED_FORMATS_INVALID: 'BAD_REQUEST',
        CANCELLATION_INVALID: 'CONFLICT',
        REFERENCE_STATUS_INVALID: 'CONFLICT',
        REQUEST_TIMEOUT: 'BAD_REQUEST',
        PAYLOAD_TOO_LARGE: 'BAD_REQUEST',
        HEADERS_TOO_LARGE: 'BAD_REQUEST',
        UNSUPPORTED_MEDIA_TYPE: 'FORMAT_ERROR',
        SERVICE_UNAVAILABLE: 'SYSTEM_ERROR',
      },
    );
  });

  it('publishes a code known neither to the list nor to the catalogue (untyped data only) as BAD_REQUEST', () => {
    assert.equal(tppMessageCodeOf('SOMETHING_NEW'), 'BAD_REQUEST');
    assert.equal(tppMessageCodeOf('toString'), 'BAD_REQUEST');
  });
});
