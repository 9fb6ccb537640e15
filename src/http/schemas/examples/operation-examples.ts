import type { OperationExamples } from './operation-example.js';
import { accountInformationExamples } from './account-information-examples.js';
import { bulkPaymentExamples } from './bulk-payment-examples.js';
import { cardAccountExamples } from './card-account-examples.js';
import { crossBorderPaymentExamples } from './cross-border-payment-examples.js';
import { domesticPaymentExamples } from './domestic-payment-examples.js';
import { paymentServiceExamples } from './payment-service-examples.js';
import { periodicPaymentExamples } from './periodic-payment-examples.js';
import { sandboxAccountExamples } from './sandbox-account-examples.js';
import { sandboxCardAccountExamples } from './sandbox-card-account-examples.js';
import { sandboxClockExamples } from './sandbox-clock-examples.js';
import { sandboxConsoleExamples } from './sandbox-console-examples.js';
import { sandboxCustomerExamples } from './sandbox-customer-examples.js';
import { sandboxKeyExamples } from './sandbox-key-examples.js';
import { sandboxScenarioExamples } from './sandbox-scenario-examples.js';
import { sandboxSnapshotExamples } from './sandbox-snapshot-examples.js';
import { signingBasketExamples } from './signing-basket-examples.js';

/**
 * Every operation's example, by operationId, from the file of its product or resource. A new
 * operation needs one: test/http/openapi-examples.test.ts names any operation without it.
 */
export const OPERATION_EXAMPLES: OperationExamples = merged([
  domesticPaymentExamples,
  crossBorderPaymentExamples,
  bulkPaymentExamples,
  periodicPaymentExamples,
  paymentServiceExamples,
  signingBasketExamples,
  accountInformationExamples,
  cardAccountExamples,
  sandboxClockExamples,
  sandboxCustomerExamples,
  sandboxAccountExamples,
  sandboxCardAccountExamples,
  sandboxKeyExamples,
  sandboxSnapshotExamples,
  sandboxScenarioExamples,
  sandboxConsoleExamples,
]);

/** One record of them all; an operationId in two files is a programmer error. */
function merged(parts: readonly OperationExamples[]): OperationExamples {
  const all: Record<string, OperationExamples[string]> = {};
  for (const part of parts) {
    for (const [operationId, example] of Object.entries(part)) {
      if (operationId in all) throw new Error(`two examples of operation ${operationId}`);
      all[operationId] = example;
    }
  }
  return all;
}
