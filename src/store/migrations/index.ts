import type { Migration } from 'kysely';
import { paymentsMigration } from './001-payments.js';
import { bankMigration } from './002-bank.js';
import { scaMigration } from './003-sca.js';
import { ledgerMigration } from './004-ledger.js';
import { duePaymentsMigration } from './005-due-payments.js';
import { requestBindingsMigration } from './006-request-bindings.js';
import { psuLockoutMigration } from './007-psu-lockout.js';
import { banksMigration } from './008-banks.js';
import { createPaymentFunctionMigration } from './009-create-payment-function.js';
import { cancelRequestMigration } from './010-cancel-request.js';
import { aisConsentsMigration } from './011-ais-consents.js';
import { duplicateHashMigration } from './012-duplicate-hash.js';
import { duplicateScopeMigration } from './013-duplicate-scope.js';
import { periodicPaymentsMigration } from './014-periodic-payments.js';
import { authorisationListsMigration } from './015-authorisation-lists.js';
import { endToEndIdMigration } from './016-end-to-end-id.js';
import { bankOwnersMigration } from './017-bank-owners.js';
import { sandboxSnapshotsMigration } from './018-sandbox-snapshots.js';
import { sandboxScenariosMigration } from './019-sandbox-scenarios.js';
import { bankPaymentsIndexMigration } from './020-bank-payments-index.js';
import { coreHandoversMigration } from './021-core-handovers.js';
import { psuSessionCustomerMigration } from './022-psu-session-customer.js';
import { bankBulkOperationsMigration } from './023-bank-bulk-operations.js';
import { consoleSessionsMigration } from './024-console-sessions.js';
import { bankTrustMigration } from './025-bank-trust.js';
import { notificationSubscriptionsMigration } from './026-notification-subscriptions.js';
import { notificationOutboxMigration } from './027-notification-outbox.js';
import { consentExpiryIndexMigration } from './028-consent-expiry-index.js';
import { bankFactsVersionMigration } from './029-bank-facts-version.js';
import { paymentChangeSeqMigration } from './030-payment-change-seq.js';
import { paymentChangeTransactionMigration } from './031-payment-change-transaction.js';
import { dropChangedAtMigration } from './032-drop-changed-at.js';

/**
 * Every migration, in order. They are compiled into the server rather than read from a folder at
 * start, so a start costs no directory scan and a build cannot miss one.
 */
export const migrations: Record<string, Migration> = {
  '001-payments': paymentsMigration,
  '002-bank': bankMigration,
  '003-sca': scaMigration,
  '004-ledger': ledgerMigration,
  '005-due-payments': duePaymentsMigration,
  '006-request-bindings': requestBindingsMigration,
  '007-psu-lockout': psuLockoutMigration,
  '008-banks': banksMigration,
  '009-create-payment-function': createPaymentFunctionMigration,
  '010-cancel-request': cancelRequestMigration,
  '011-ais-consents': aisConsentsMigration,
  '012-duplicate-hash': duplicateHashMigration,
  '013-duplicate-scope': duplicateScopeMigration,
  '014-periodic-payments': periodicPaymentsMigration,
  '015-authorisation-lists': authorisationListsMigration,
  '016-end-to-end-id': endToEndIdMigration,
  '017-bank-owners': bankOwnersMigration,
  '018-sandbox-snapshots': sandboxSnapshotsMigration,
  '019-sandbox-scenarios': sandboxScenariosMigration,
  '020-bank-payments-index': bankPaymentsIndexMigration,
  '021-core-handovers': coreHandoversMigration,
  '022-psu-session-customer': psuSessionCustomerMigration,
  '023-bank-bulk-operations': bankBulkOperationsMigration,
  '024-console-sessions': consoleSessionsMigration,
  '025-bank-trust': bankTrustMigration,
  '026-notification-subscriptions': notificationSubscriptionsMigration,
  '027-notification-outbox': notificationOutboxMigration,
  '028-consent-expiry-index': consentExpiryIndexMigration,
  '029-bank-facts-version': bankFactsVersionMigration,
  '030-payment-change-seq': paymentChangeSeqMigration,
  '031-payment-change-transaction': paymentChangeTransactionMigration,
  '032-drop-changed-at': dropChangedAtMigration,
};

/**
 * The migrations that change no table a sandbox snapshot holds (queries/bank-tables.ts,
 * SNAPSHOT_TABLES): a snapshot saved before one of them still fits the tables after it. A new
 * migration is named here when it touches only other tables (the banks row, new tables of their own);
 * otherwise every snapshot saved before it is refused as stale.
 */
export const MIGRATIONS_OUTSIDE_SNAPSHOTS: ReadonlySet<string> = new Set([
  '023-bank-bulk-operations',
  '024-console-sessions',
  '025-bank-trust',
  // Adds a table and a nullable column only: a snapshot saved before it (no subscription, no answer
  // headers, which is what every create before it had) restores unchanged (docs/decisions/0329).
  '026-notification-subscriptions',
  // New tables, and triggers that change no column of a snapshot's tables.
  '027-notification-outbox',
  // An index only.
  '028-consent-expiry-index',
  // A column of the banks row, and triggers that change no column of a snapshot's tables.
  '029-bank-facts-version',
  // A nullable column that only the reference core's own ledger fills (tpp_id 'core'): a sandbox
  // bank's payments hold null in it, before the migration and after.
  '030-payment-change-seq',
  // The same, for a second such column.
  '031-payment-change-transaction',
  // Drops the first of them: a snapshot saved before it restores without it (DROPPED_SNAPSHOT_COLUMNS).
  '032-drop-changed-at',
]);

/**
 * Columns that a migration of MIGRATIONS_OUTSIDE_SNAPSHOTS dropped from a table a snapshot holds. A
 * snapshot saved before it has them, null in every sandbox bank's row; its restore leaves them out.
 */
export const DROPPED_SNAPSHOT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  // 032: only the reference core's own ledger (tpp_id 'core', in no sandbox bank) wrote it.
  payments: ['changed_at_ms'],
};
