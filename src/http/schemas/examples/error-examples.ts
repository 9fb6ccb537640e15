import { link } from './operation-example.js';
import { SCA_PAGE, SCA_TOKENS } from './example-values.js';

/**
 * The error answers of the examples, each written once in components.examples and listed on every
 * operation's response of its status where it can happen: the error body (docs/errors.md) as the
 * server writes it, with the precise code and texts that name what to change.
 */

/** Where an operation is, for choosing the errors it can give. */
export interface OperationPlace {
  path: string;
  operationId: string;
}

interface ErrorExample {
  status: number;
  summary: string;
  value: Record<string, unknown>;
  /** The operations that can give it; every operation documenting its status when absent. */
  applies?: (operation: OperationPlace) => boolean;
}

const PAYMENT_PATHS = /^\/v1\/(payments|bulk-payments|periodic-payments)\//;
const isPayment = (o: OperationPlace) => PAYMENT_PATHS.test(o.path);
const isPaymentCreate = (o: OperationPlace) => isPayment(o) && o.operationId.startsWith('initiate');
const isBasket = (o: OperationPlace) => o.path.startsWith('/v1/signing-baskets');
const isAccountRead = (o: OperationPlace) => /^\/v1\/(accounts|card-accounts)/.test(o.path);
const isConsent = (o: OperationPlace) => /^\/v1\/(consents|bank-offered-consents)/.test(o.path);
const isSandbox = (o: OperationPlace) => o.path.startsWith('/v1/sandbox/');

/** The error body: its id is the request's in the server's log; each message names the field or header. */
function errorBody(id: string, status: number, code: string, message: string, tppMessage: Record<string, string>) {
  return { id, system: 'psd2-pis', status, code, message, tppMessages: [{ category: 'ERROR', ...tppMessage }] };
}

/** A message whose precise code is not in the specification's list: the text ends with it. */
const precise = (text: string, code: string) => `${text} (${code})`;

const signatureText =
  "Signature does not verify with the key of TPP-Signature-Certificate over the signed headers 'date x-request-id' (was it made with another key, or was a signed header changed?)";
const mod11Text =
  "$.debtorAccount.bban '15061012344' is not a Norwegian account number: its MOD11 check digit is wrong";
const acceptText = "Accept 'application/xml' does not allow application/json, the only format this API produces";
const reuseText =
  "X-Request-ID '4f6b1d2e-8c3a-4e5f-9a7b-2c1d0e9f8a7b' was used before by this TPP for POST /v1/payments/norwegian-domestic-credit-transfers with a different body; each X-Request-ID is bound to the request it was first signed for (method, path with query and body). A retry must repeat that request exactly; every new request needs a new X-Request-ID";
const tooLargeText = 'the body is larger than 65536 bytes, the most this operation accepts';
const mediaTypeText = "Content-Type 'text/plain' is not supported; send the body as application/json";
const cancelText =
  'payment enc!!-P7MI2J-W7yBWMzC8wQtvOJS is ACSC and can no longer be cancelled; a payment can be cancelled until the batch run executes it (statuses RCVD, ACTC, ACCP, ACWC, PDNG)';
const unattendedText =
  "the list of accounts of this consent: read 4 times today (2026-11-26, Norwegian time by the bank's clock) without PSU-IP-Address; PSD2 RTS article 36(5) allows 4 reads a day without the PSU: send PSU-IP-Address when the PSU asks, or read again tomorrow";
const certificatesText =
  'this operation answers at most 10 requests a minute from one address; ask again in 1 minute (Retry-After)';
const challengeText =
  "header PSU-ID is required to read account information: send PSU-ID and TPP-Session-ID as the consent's SCA returned them (psu-id, tpp-session-id); the PSU gives a consent at the scaRedirect";

/** By name, as components.examples lists them. */
export const ERROR_EXAMPLES: Readonly<Record<string, ErrorExample>> = {
  HeaderRequired: {
    status: 400,
    summary: 'A required header is missing',
    value: errorBody(
      'be9d9f8f-ff68-431e-85b1-b4db43264ada',
      400,
      'HTTP_HEADER_REQUIRED',
      'header X-Request-ID is required',
      {
        code: 'HTTP_HEADER_REQUIRED',
        path: 'header:X-Request-ID',
        text: 'header X-Request-ID is required',
      },
    ),
  },
  DebtorAccountInvalid: {
    status: 400,
    summary: 'A field is wrong: the debtor account number fails its MOD11 check',
    applies: isPaymentCreate,
    value: errorBody('cf5124c2-11ec-4f5d-bf80-e74746343430', 400, 'FORMAT_ERROR', mod11Text, {
      code: 'FORMAT_ERROR',
      path: '$.debtorAccount.bban',
      text: mod11Text,
    }),
  },
  SignatureInvalid: {
    status: 401,
    summary: 'The request’s signature does not verify',
    value: errorBody('ec480834-6365-40b2-8f06-eec3a49c2ef1', 401, 'SIGNATURE_INVALID', signatureText, {
      code: 'BAD_REQUEST',
      path: 'header:Signature',
      text: precise(signatureText, 'SIGNATURE_INVALID'),
    }),
  },
  ScaChallenge: {
    status: 401,
    summary: 'No consent in this session yet: the PSU gives one at the scaRedirect',
    applies: isAccountRead,
    value: {
      tppMessages: [{ category: 'ERROR', code: 'CONSENT_UNKNOWN', path: 'header:PSU-ID', text: challengeText }],
      _links: { scaRedirect: link(`${SCA_PAGE}/${SCA_TOKENS.challenge}`, 'GET') },
    },
  },
  ProductInvalid: {
    status: 403,
    summary: 'The product is not offered as this kind of payment',
    applies: isPayment,
    value: errorBody(
      '87aacdea-fbe4-43aa-84a9-7e7efc3a398a',
      403,
      'PRODUCT_INVALID',
      'sepa-credit-transfers is offered as payments, not as bulk-payments',
      {
        code: 'PRODUCT_INVALID',
        path: 'path:payment-product',
        text: 'sepa-credit-transfers is offered as payments, not as bulk-payments',
      },
    ),
  },
  ConsentUnknown: {
    status: 403,
    summary: 'The consent of this session was ended',
    applies: (o) => isAccountRead(o) || isConsent(o),
    value: ((text: string) =>
      errorBody('e5714d3c-ab80-435a-acb4-ab3a76577692', 403, 'CONSENT_UNKNOWN', text, {
        code: 'CONSENT_UNKNOWN',
        path: 'header:TPP-Session-ID',
        text,
      }))(
      'the consent given in TPP-Session-ID 3c0f7a52-9d1e-4b6a-8e2f-5a7c9b1d3e4f is terminatedByTpp: this TPP ended it with DELETE /v1/consents/{consentId} at 2026-11-26T09:12:44.000Z; to read again, ask a new consent with POST /v1/bank-offered-consents, which the PSU gives at its scaRedirect',
    ),
  },
  PaymentUnknown: {
    status: 404,
    summary: 'No such payment of this TPP',
    applies: isPayment,
    value: ((text: string) =>
      errorBody('d0238940-fae3-4ae1-9af7-c63dafd85fd6', 404, 'RESOURCE_UNKNOWN', text, {
        code: 'RESOURCE_UNKNOWN',
        path: 'path:paymentId',
        text,
      }))(
      'no payments resource enc!!-P7MI2J-W7yBWMzC8wQtvOJS of product norwegian-domestic-credit-transfers is known to this TPP',
    ),
  },
  BasketUnknown: {
    status: 404,
    summary: 'No such signing basket of this TPP',
    applies: isBasket,
    value: ((text: string) =>
      errorBody('c99653dd-9bcc-41e0-ab90-a66d02e9d82f', 404, 'RESOURCE_UNKNOWN', text, {
        code: 'RESOURCE_UNKNOWN',
        path: 'path:basketId',
        text,
      }))('no signing basket enc!!-P7MI5GKK3adq97bBQ1Mivd5 is known to this TPP'),
  },
  AccountUnknown: {
    status: 404,
    summary: 'The PSU did not share this account in the consent',
    applies: isAccountRead,
    value: ((text: string) =>
      errorBody('10c47d47-1b29-404d-8836-330bbe739b48', 404, 'RESOURCE_UNKNOWN', text, {
        code: 'RESOURCE_UNKNOWN',
        path: 'path:accountId',
        text,
      }))('no account enc!!ZCSnW2ZEyelyjYhsLlsCZHcv is among those the PSU shared in this consent'),
  },
  SandboxResourceUnknown: {
    status: 404,
    summary: 'No such test resource in this TPP’s sandbox bank',
    applies: isSandbox,
    value: ((text: string) =>
      errorBody('7e721b95-af77-4ebc-a782-9648c5454816', 404, 'RESOURCE_UNKNOWN', text, {
        code: 'RESOURCE_UNKNOWN',
        path: 'path:customerId',
        text,
      }))('no customer enc!!jmVPRnc0puuhdrh4ILJ_xQoQ is known to this TPP'),
  },
  CancellationInvalid: {
    status: 405,
    summary: 'The payment is executed: too late to cancel',
    value: errorBody('971f3514-7787-4ae7-b9eb-09534bee99ee', 405, 'CANCELLATION_INVALID', cancelText, {
      code: 'CONFLICT',
      text: precise(cancelText, 'CANCELLATION_INVALID'),
    }),
  },
  RequestedFormatsInvalid: {
    status: 406,
    summary: 'Accept excludes JSON',
    value: errorBody('546cf377-f49c-4c90-9148-6e301f5db8f0', 406, 'REQUESTED_FORMATS_INVALID', acceptText, {
      code: 'BAD_REQUEST',
      path: 'header:Accept',
      text: precise(acceptText, 'REQUESTED_FORMATS_INVALID'),
    }),
  },
  RequestIdReused: {
    status: 409,
    summary: 'The X-Request-ID was used for another request',
    value: errorBody('2f34717b-f670-4b5d-b929-7eeaeb2c1fd9', 409, 'CONFLICT', reuseText, {
      code: 'CONFLICT',
      path: 'header:X-Request-ID',
      text: reuseText,
    }),
  },
  PayloadTooLarge: {
    status: 400,
    summary: 'The body is larger than the operation takes',
    value: errorBody('09b99eaa-c9e0-440c-8cb0-f10a947522ef', 400, 'PAYLOAD_TOO_LARGE', tooLargeText, {
      code: 'BAD_REQUEST',
      text: precise(tooLargeText, 'PAYLOAD_TOO_LARGE'),
    }),
  },
  UnsupportedMediaType: {
    status: 415,
    summary: 'The body is not JSON',
    value: errorBody('59395f73-60a1-4b33-bc68-ca1be923db49', 415, 'UNSUPPORTED_MEDIA_TYPE', mediaTypeText, {
      code: 'FORMAT_ERROR',
      path: 'header:Content-Type',
      text: precise(mediaTypeText, 'UNSUPPORTED_MEDIA_TYPE'),
    }),
  },
  AccessExceeded: {
    status: 429,
    summary: 'The fifth read today without the PSU present',
    applies: isAccountRead,
    value: errorBody(
      '2c30eaeb-4bad-4586-9547-3a9b63efa681',
      429,
      'ACCESS_EXCEEDED',
      'the list of accounts of this consent: read 4 times today (2026-11-26) without the PSU present',
      { code: 'ACCESS_EXCEEDED', path: 'header:PSU-IP-Address', text: unattendedText },
    ),
  },
  CertificatesExceeded: {
    status: 429,
    summary: 'The eleventh certificate this minute from one address',
    applies: (o) => o.path === '/v1/sandbox/certificates',
    value: errorBody('8b1f0c6e-2d4a-4f7b-9e3c-5a6d7b8c9e01', 429, 'ACCESS_EXCEEDED', certificatesText, {
      code: 'ACCESS_EXCEEDED',
      text: certificatesText,
    }),
  },
  SystemError: {
    status: 500,
    summary: 'A fault of the server: the id finds it in the log',
    value: { id: '6d2b9e47-3f1a-4c8e-b5d0-8a9c7e1f2b34', system: 'psd2-pis', status: 500, code: 'SYSTEM_ERROR' },
  },
};

/** The names of the error examples of an operation's response with this status. */
export function errorExamplesOf(operation: OperationPlace, status: number): string[] {
  return Object.entries(ERROR_EXAMPLES)
    .filter(([, example]) => example.status === status && (example.applies?.(operation) ?? true))
    .map(([name]) => name);
}
