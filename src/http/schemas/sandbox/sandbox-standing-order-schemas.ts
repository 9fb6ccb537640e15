/** A standing order running from a sandbox account, as GET /v1/sandbox/accounts/{mockAccountId}/standing-orders lists it. */
export const sandboxStandingOrderSchema = {
  $id: 'SandboxStandingOrder',
  type: 'object',
  required: ['paymentId', 'transactionStatus', 'instructedAmount', 'startDate', 'frequency', '_links'],
  properties: {
    paymentId: {
      type: 'string',
      description: 'The id for GET, DELETE and the status of /v1/periodic-payments/{product}',
    },
    transactionStatus: { type: 'string', enum: ['ACTC', 'PDNG'] },
    instructedAmount: { $ref: 'Amount#' },
    creditorName: { type: 'string' },
    creditorAccount: {
      type: 'object',
      properties: { bban: { type: 'string' }, iban: { type: 'string' }, currency: { type: 'string' } },
    },
    remittanceInformationUnstructured: { type: 'string' },
    startDate: { type: 'string', format: 'date' },
    endDate: { type: 'string', format: 'date' },
    frequency: { type: 'string' },
    dayOfExecution: { type: 'string' },
    nextExecutionDate: { type: 'string', format: 'date' },
    _links: {
      type: 'object',
      properties: {
        self: { $ref: 'Link#' },
        status: { $ref: 'Link#' },
      },
    },
  },
} as const;
