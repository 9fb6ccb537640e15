/**
 * Each operation's operationId in the OpenAPI document: named after what it does, Berlin Group's
 * NextGenPSD2 names where it has one (initiatePayment, getPaymentInitiationStatus, createConsent,
 * getAccountList, ...). A client generated from the document names its calls after them, so they are
 * part of the interface: never renamed, only added (test/http/openapi-document.test.ts names any
 * operation without one).
 *
 * Berlin Group has one create and one read for every product under /{payment-product}; here each
 * product has a path of its own, so those ids end with the product (initiatePaymentSepaCreditTransfers).
 */
const FIXED: Record<string, string> = {
  ...serviceOperations('/v1/payments', ''),
  ...serviceOperations('/v1/bulk-payments', 'Bulk'),
  ...serviceOperations('/v1/periodic-payments', 'Periodic'),
  'POST /v1/signing-baskets': 'createSigningBasket',
  'GET /v1/signing-baskets/{basketId}': 'getSigningBasket',
  'DELETE /v1/signing-baskets/{basketId}': 'deleteSigningBasket',
  'GET /v1/signing-baskets/{basketId}/status': 'getSigningBasketStatus',
  'POST /v1/signing-baskets/{basketId}/authorisations': 'startSigningBasketAuthorisation',
  'GET /v1/signing-baskets/{basketId}/authorisations': 'getSigningBasketAuthorisation',
  'GET /v1/signing-baskets/{basketId}/authorisations/{authorisationId}': 'getSigningBasketScaStatus',
  'POST /v1/bank-offered-consents': 'createConsent',
  'DELETE /v1/consents/{consentId}': 'deleteConsent',
  'GET /v1/accounts': 'getAccountList',
  'GET /v1/accounts/{accountId}': 'readAccountDetails',
  'GET /v1/accounts/{accountId}/balances': 'getBalances',
  'GET /v1/accounts/{accountId}/transactions': 'getTransactionList',
  'GET /v1/accounts/{accountId}/transactions/{transactionId}': 'getTransactionDetails',
  'GET /v1/card-accounts': 'getCardAccountList',
  'GET /v1/card-accounts/{cardAccountId}': 'readCardAccountDetails',
  'GET /v1/card-accounts/{cardAccountId}/balances': 'getCardAccountBalances',
  'GET /v1/card-accounts/{cardAccountId}/transactions': 'getCardAccountTransactionList',
  'GET /v1/sandbox/clock': 'getSandboxClock',
  'POST /v1/sandbox/clock': 'moveSandboxClock',
  'POST /v1/sandbox/batch-runs': 'runSandboxBatch',
  'GET /v1/sandbox/keys': 'getSandboxBankKeys',
  'POST /v1/sandbox/keys': 'bindSandboxBankKey',
  'DELETE /v1/sandbox/keys/{keySha256}': 'unbindSandboxBankKey',
  'POST /v1/sandbox/customers': 'createSandboxCustomer',
  'GET /v1/sandbox/customers': 'getSandboxCustomerList',
  'GET /v1/sandbox/customers/{customerId}': 'getSandboxCustomer',
  'DELETE /v1/sandbox/customers/{customerId}': 'deleteSandboxCustomer',
  'PATCH /v1/sandbox/customers/{customerId}': 'updateSandboxCustomer',
  'POST /v1/sandbox/accounts': 'createSandboxAccount',
  'GET /v1/sandbox/accounts/{mockAccountId}': 'getSandboxAccount',
  'DELETE /v1/sandbox/accounts/{mockAccountId}': 'deleteSandboxAccount',
  'PATCH /v1/sandbox/accounts/{mockAccountId}': 'updateSandboxAccount',
  'POST /v1/sandbox/accounts/{mockAccountId}/transactions': 'createSandboxAccountTransactions',
  'GET /v1/sandbox/accounts/{mockAccountId}/transactions': 'getSandboxAccountTransactionList',
  'GET /v1/sandbox/accounts/{mockAccountId}/transactions/{transactionId}': 'getSandboxAccountTransaction',
  'GET /v1/sandbox/accounts/{mockAccountId}/standing-orders': 'getSandboxAccountStandingOrders',
  'POST /v1/sandbox/agreements': 'createSandboxAgreement',
  'GET /v1/sandbox/agreements/{agreementId}': 'getSandboxAgreement',
  'DELETE /v1/sandbox/agreements/{agreementId}': 'deleteSandboxAgreement',
  'POST /v1/sandbox/card-accounts': 'createSandboxCardAccount',
  'GET /v1/sandbox/card-accounts/{mockCardAccountId}': 'getSandboxCardAccount',
  'DELETE /v1/sandbox/card-accounts/{mockCardAccountId}': 'deleteSandboxCardAccount',
  'POST /v1/sandbox/card-accounts/{mockCardAccountId}/transactions': 'createSandboxCardAccountTransactions',
  'GET /v1/sandbox/card-accounts/{mockCardAccountId}/transactions': 'getSandboxCardAccountTransactionList',
  'GET /v1/sandbox/card-accounts/{mockCardAccountId}/transactions/{transactionId}': 'getSandboxCardAccountTransaction',
  'POST /v1/sandbox/initialize': 'initializeSandbox',
  'POST /v1/sandbox/snapshots': 'createSandboxSnapshot',
  'GET /v1/sandbox/snapshots': 'getSandboxSnapshotList',
  'GET /v1/sandbox/snapshots/{snapshotId}': 'getSandboxSnapshot',
  'DELETE /v1/sandbox/snapshots/{snapshotId}': 'deleteSandboxSnapshot',
  'POST /v1/sandbox/snapshots/{snapshotId}/restore': 'restoreSandboxSnapshot',
  'POST /v1/sandbox/scenarios': 'armSandboxScenario',
  'GET /v1/sandbox/scenarios': 'getSandboxScenarioList',
  'DELETE /v1/sandbox/scenarios/{scenarioId}': 'disarmSandboxScenario',
  'POST /v1/sandbox/certificates': 'issueSandboxCertificate',
  'POST /v1/sandbox/console-links': 'createSandboxConsoleLink',
  'POST /v1/sandbox/docs-links': 'createSandboxDocsLink',
  'POST /v1/sandbox/docs-links/bind': 'bindSandboxDocsLinkKey',
};

/** The operations every product of a payment service shares, under /{product}; Berlin Group's names. */
function serviceOperations(base: string, kind: '' | 'Bulk' | 'Periodic'): Record<string, string> {
  const resource = `${base}/{product}/{paymentId}`;
  const payment = `${kind}Payment`;
  return {
    [`GET ${resource}/status`]: `get${payment}InitiationStatus`,
    [`DELETE ${resource}`]: `cancel${payment}`,
    [`POST ${resource}/authorisations`]: `start${payment}Authorisation`,
    [`GET ${resource}/authorisations`]: `get${payment}InitiationAuthorisation`,
    [`GET ${resource}/authorisations/{authorisationId}`]: `get${payment}InitiationScaStatus`,
    [`POST ${resource}/cancellation-authorisations`]: `start${payment}InitiationCancellationAuthorisation`,
    [`GET ${resource}/cancellation-authorisations`]: `get${payment}InitiationCancellationAuthorisationInformation`,
    [`GET ${resource}/cancellation-authorisations/{authorisationId}`]: `get${payment}CancellationScaStatus`,
  };
}

const KIND_OF_SERVICE: Record<string, string> = {
  payments: '',
  'bulk-payments': 'Bulk',
  'periodic-payments': 'Periodic',
};

/** A product's own create, read and status: Berlin Group's name with the product's, as in its path. */
const PRODUCT_PATH = /^\/v1\/(payments|bulk-payments|periodic-payments)\/([a-z0-9-]+)(\/\{paymentId\}(\/status)?)?$/;

/** The operationId of an operation, by method and path as routed (with {parameters}); undefined when it has none. */
export function operationIdOf(method: string, path: string): string | undefined {
  const key = `${method.toUpperCase()} ${path}`;
  const fixed = FIXED[key];
  if (fixed !== undefined) return fixed;
  const product = PRODUCT_PATH.exec(path);
  if (product === null) return undefined;
  const payment = `${KIND_OF_SERVICE[product[1]!]}Payment`;
  const suffix = product[2]!.replace(/(^|-)([a-z0-9])/g, (_, _dash: string, c: string) => c.toUpperCase());
  if (product[4] !== undefined && method.toUpperCase() === 'GET') return `get${payment}InitiationStatus${suffix}`;
  if (product[3] !== undefined && method.toUpperCase() === 'GET') return `get${payment}Information${suffix}`;
  if (product[3] === undefined && method.toUpperCase() === 'POST') return `initiate${payment}${suffix}`;
  return undefined;
}

/**
 * The operationId of a route as Fastify adds it: its path with `:parameters`, its method or methods
 * (the first names it). The OpenAPI document and the scenarios' catalogue both name routes so.
 */
export function operationIdOfRoute(method: string | readonly string[], url: string): string | undefined {
  const first = typeof method === 'string' ? method : (method[0] ?? '');
  return operationIdOf(first, url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'));
}
