/** Berlin Group's scaStatus values (domain/sca.ts ScaStatus; docs/decisions/0067 gives which this bank reaches). */
const SCA_STATUSES = [
  'received',
  'psuIdentified',
  'psuAuthenticated',
  'scaMethodSelected',
  'started',
  'unconfirmed',
  'finalised',
  'failed',
  'exempted',
] as const;

/**
 * POST …/authorisations and …/cancellation-authorisations: the platform answers scaStatus and
 * _links.scaRedirect; authorisationId and _links.scaStatus are Berlin Group's, in every new answer
 * (a retry of a start made before them gets the answer stored then, without them).
 */
export const authorisationStartedSchema = {
  $id: 'AuthorisationStarted',
  type: 'object',
  required: ['scaStatus', '_links'],
  properties: {
    scaStatus: { type: 'string', enum: ['started'] },
    authorisationId: { type: 'string', description: 'The id under …/authorisations/{authorisationId}' },
    tppMessages: { type: 'array', items: { $ref: 'TppMessage#' } },
    _links: { $ref: 'Links#' },
  },
} as const;

/** GET …/authorisations and …/cancellation-authorisations: Berlin Group 1.3.11's one shape for both lists. */
export const authorisationListSchema = {
  $id: 'AuthorisationList',
  type: 'object',
  required: ['authorisationIds'],
  properties: {
    authorisationIds: { type: 'array', items: { type: 'string' }, description: 'Oldest first' },
  },
} as const;

export const scaStatusResponseSchema = {
  $id: 'ScaStatusResponse',
  type: 'object',
  required: ['scaStatus'],
  properties: {
    scaStatus: {
      type: 'string',
      enum: [...SCA_STATUSES],
      description:
        'started until the PSU logged in, psuAuthenticated on the confirmation page, finalised once approved, failed when declined, not authenticated or expired',
    },
    tppMessages: {
      type: 'array',
      items: { $ref: 'TppMessage#' },
      description: 'SCA_EXPIRED when the authorisation failed because the PSU left its link or page until it expired',
    },
  },
} as const;

/** DELETE of an authorised payment: nothing is cancelled until the PSU approves the cancellation. */
export const paymentCancellationAcceptedSchema = {
  $id: 'PaymentCancellationAccepted',
  type: 'object',
  required: ['transactionStatus', '_links'],
  properties: {
    transactionStatus: { $ref: 'TransactionStatus#' },
    _links: { $ref: 'Links#' },
  },
} as const;

export const authorisationSchemas = [
  authorisationStartedSchema,
  authorisationListSchema,
  scaStatusResponseSchema,
  paymentCancellationAcceptedSchema,
];
