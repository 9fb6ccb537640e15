import { SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH } from '../../domain/limits.js';
import { SIGNATURE_MISTAKES } from '../../security/signature-mistakes.js';

const strings = { type: 'array', items: { type: 'string' } } as const;

/**
 * The sandbox's `signatureExplanation` (security/signature-mistakes.ts): in the error schemas of
 * sandbox mode only, so production's document, like its answers, has no trace of it.
 */
export const signatureExplanationSchema = {
  $id: 'SignatureExplanation',
  type: 'object',
  description: `Sandbox only: what did not match in a refused TPP authentication (docs/errors.md, "Why was my signature refused?"). Production never answers it. Values echoed from the request are cut to ${SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH} characters; the certificate header and credentials are never echoed.`,
  required: ['mistakes'],
  properties: {
    mistakes: {
      type: 'array',
      description:
        'What did not match, in the order the bank checks: the first is the one the request was refused for.',
      items: {
        type: 'object',
        required: ['name', 'header', 'text'],
        properties: {
          name: { type: 'string', enum: Object.keys(SIGNATURE_MISTAKES) },
          header: { type: 'string', description: 'The header the mistake is in' },
          text: { type: 'string', description: 'What is wrong and what to do' },
        },
      },
    },
    signedHeaders: { ...strings, description: "The Signature's headers parameter as the bank read it, in order" },
    signingString: {
      ...strings,
      description: 'The signing string the bank built from the request as received, one line per signed header',
    },
    signatureVerifies: {
      type: 'boolean',
      description: "Whether the signature verifies over that signing string with the certificate's key",
    },
    unsignedHeaders: { ...strings, description: 'Headers the request carries that must be signed but are not listed' },
    absentHeaders: { ...strings, description: 'Headers listed as signed that the request does not carry' },
    keyId: {
      type: 'object',
      required: ['serial', 'certificateSerial', 'issuer', 'certificateIssuer'],
      properties: {
        serial: { type: 'string' },
        certificateSerial: { type: 'string' },
        issuer: { type: 'string' },
        certificateIssuer: { type: 'string' },
      },
    },
    digest: {
      type: 'object',
      description: 'The Digest sent, beside the one the bank computed over the body received',
      required: ['algorithm', 'received', 'computed'],
      properties: { algorithm: { type: 'string' }, received: { type: 'string' }, computed: { type: 'string' } },
    },
    date: {
      type: 'object',
      required: ['received', 'serverTime', 'skewSeconds', 'allowedSkewSeconds'],
      properties: {
        received: { type: 'string' },
        serverTime: { type: 'string' },
        skewSeconds: { type: 'integer', description: 'Date minus the server clock; negative when Date is behind' },
        allowedSkewSeconds: { type: 'integer' },
      },
    },
    algorithm: {
      type: 'object',
      required: ['received', 'accepted'],
      properties: { received: { type: 'string' }, accepted: strings },
    },
  },
} as const;
