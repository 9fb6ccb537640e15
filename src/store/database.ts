import type { ColumnType } from 'kysely';
import type { Amount, SmallInt } from './column-types.js';
import type { CoreHandoverTable, CoreReportCursorTable } from './core-handover-tables.js';
import type { NotificationAttemptTable, NotificationEventTable, NotificationKeyTable } from './notification-tables.js';
import type {
  ConsoleLinkUseTable,
  ConsoleSessionTable,
  SandboxScenarioTable,
  SandboxSnapshotTable,
} from './sandbox-tables.js';

/**
 * Table types of the database, as Kysely sees them. One schema serves both SQLite and PostgreSQL:
 * amounts are integer minor units (bigint), instants are ISO 8601 text in UTC, ids are text,
 * booleans are 0/1. SQLite returns every integer as bigint (safe integers), PostgreSQL returns int4
 * as number: small integers are read as `number | bigint` and converted where read
 * (column-types.ts). The sandbox's own tables are in sandbox-tables.ts, a core's hand-over's in
 * core-handover-tables.ts.
 */

export interface TppRequestTable {
  tpp_id: string;
  request_id: string;
  operation: string;
  body_sha256: string;
  response_status: SmallInt;
  response_body: string;
  payment_id: string | null;
  created_at: string;
  /** Migration 026: the answer's own headers as JSON; null for an answer without any. */
  response_headers: string | null;
}

/** Migration 026: a resource's notification subscription (docs/notifications.md). */
export interface NotificationSubscriptionTable {
  resource_kind: string;
  resource_id: string;
  tpp_id: string;
  uri: string;
  /** The contents comma-separated, in the order of NOTIFICATION_CONTENTS: SCA,PROCESS,LAST. */
  content: string;
  created_at: string;
}

export interface RequestBindingTable {
  tpp_id: string;
  request_id: string;
  method: string;
  target: string;
  body_sha256: string;
  scope: string;
  expires_at: string;
}

export interface PaymentTable {
  id: string;
  /** The bank whose accounts the batch run pays from and to (migration 008). */
  bank: ColumnType<string, string | undefined, string>;
  tpp_id: string;
  service: string;
  product: string;
  status: string;
  psu_key: string;
  psu_id: string | null;
  psu_national_id_hash: string | null;
  psu_corporate_id: string | null;
  psu_context: string | null;
  debtor_bban: string | null;
  debtor_iban: string | null;
  debtor_currency: string;
  requested_execution_date: string | null;
  entry_count: SmallInt;
  fee_minor: Amount;
  fee_currency: string;
  body: string;
  accept_fixes: string;
  tpp_redirect_uri: string;
  tpp_session_id: string;
  funds_available: ColumnType<number | bigint | null, number | null, number | null>;
  status_reason: string | null;
  created_at: string;
  updated_at: string;
  signed_by_customer_id: string | null;
  authorised_at: string | null;
  /** The X-Request-ID of the DELETE that cancelled it (migration 010). */
  cancel_request_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Held by a sandbox scenario (migration 019) until this instant of the bank's clock; null otherwise. */
  held_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** What a held payment becomes when its time comes: ACSC (executed then) or RJCT (with held_reason). */
  held_then: ColumnType<string | null, string | null | undefined, string | null>;
  /** The place of its last change in the reference core's feed (migration 030): its triggers write it, for its own ledger's payments only. */
  change_seq: ColumnType<number | bigint | null, never, never>;
  /** The transaction that made that change (migration 031): PostgreSQL's id of it; 0 on SQLite and for changes before it. */
  change_xid: ColumnType<number | bigint | string | null, never, never>;
  held_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TransferTable {
  payment_id: string;
  seq: SmallInt;
  tpp_id: string;
  psu_key: string;
  amount_minor: Amount;
  currency: string;
  creditor_name: string;
  creditor_account: string;
  duplicate_key: string;
  /** src/store/duplicate-hash.ts; 0 on rows written without it, before migration 012 gave them theirs. */
  duplicate_hash: ColumnType<bigint, bigint | undefined, bigint>;
  /** src/store/duplicate-hash.ts; 0 on rows older than the duplicate window when migration 013 ran, which no look-up reaches. */
  duplicate_scope: ColumnType<bigint, bigint | undefined, bigint>;
  duplicate_day: ColumnType<number, number | undefined, number>;
  status: string;
  status_reason: string | null;
  created_at: string;
}

export interface CustomerTable {
  id: string;
  /** The bank the row belongs to (migration 008): the TPP in sandbox mode, '' in production. */
  bank: string;
  customer_number: string;
  name: string;
  type: string;
  created_at: string;
  tpp_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The most one payment or bulk entry the customer may sign, in øre (migration 019); null: no limit. */
  payment_limit_minor: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
}

export interface AccountTable {
  id: string;
  bank: string;
  customer_id: string;
  bban: string;
  iban: string;
  currency: string;
  name: string;
  product: string;
  cash_account_type: string;
  credit_line_minor: Amount;
  balance_minor: Amount;
  created_at: string;
  /** Number of transactions on the account; the next one's seq is this plus one. */
  transaction_count: ColumnType<number | bigint, number | undefined, number>;
  /** Berlin Group's accountStatus (migration 019): enabled, blocked or deleted. */
  status: ColumnType<string, string | undefined, string>;
}

export interface AgreementTable {
  bank: string;
  id: string;
  owner_customer_id: string;
  name: string;
  created_at: string;
  tpp_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface EngagementTable {
  bank: string;
  agreement_id: string;
  customer_id: string;
  account_id: string;
  roles: string;
}

export interface PsuSessionTable {
  psu_id: string;
  tpp_id: string;
  customer_id: string;
  last_sca_at: string;
  tpp_session_id: string | null;
  created_at: string;
}

export interface AuthorisationTable {
  id: string;
  token_hash: string;
  stage: string;
  kind: string;
  object_id: string | null;
  tpp_id: string;
  tpp_name: string;
  psu_id: string | null;
  psu_national_id_hash: string | null;
  psu_corporate_id: string | null;
  psu_context: string | null;
  auth_method: string | null;
  redirect_preferred: SmallInt;
  tpp_redirect_uri: string | null;
  tpp_session_id: string | null;
  status: string;
  customer_id: string | null;
  attempts: SmallInt;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface BasketTable {
  id: string;
  tpp_id: string;
  psu_key: string;
  request_body: string;
  created_at: string;
}

export interface BasketPaymentTable {
  basket_id: string;
  payment_id: string;
  seq: SmallInt;
}

export interface AccountTransactionTable {
  id: string;
  account_id: string;
  seq: SmallInt;
  amount_minor: Amount;
  currency: string;
  booking_date: string;
  value_date: string;
  remittance: string;
  creditor_name: string;
  creditor_iban: string;
  creditor_bban: string;
  debtor_name: string;
  debtor_iban: string;
  debtor_bban: string;
  bank_transaction_code: string;
  ultimate_debtor: string;
  ultimate_creditor: string;
  purpose_code: string;
  payment_id: string | null;
  created_at: string;
  /** The payment's endToEndIdentification (migration 016); '' for posted test data and fees. */
  end_to_end_id: ColumnType<string, string | undefined, string>;
}

export interface CardAccountTable {
  id: string;
  bank: string;
  customer_id: string;
  masked_pan: string;
  name: string;
  product: string;
  currency: string;
  credit_limit_minor: Amount;
  balance_minor: Amount;
  body: string;
  created_at: string;
}

export interface CardTransactionTable {
  id: string;
  card_account_id: string;
  seq: SmallInt;
  booking_date: string;
  body: string;
  created_at: string;
}

/** Each bank (migration 008), made on first use, with its business clock: the wall clock plus this offset. */
export interface BankTable {
  bank: string;
  clock_offset_ms: Amount;
  created_at: string;
  updated_at: string;
  /** The client address (an IPv6 address's /64) the bank was made from (migration 016). */
  opened_from: ColumnType<string | null, string | null | undefined, string | null>;
  /** The bank's last use, to the hour (migration 016); banks unused long enough are removed. */
  used_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a certificate of a CA the operator trusts first made or used the bank (migration 025); null: never. */
  trusted_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Raised by triggers with each change of the bank's clock or scenarios (migration 029): what processes holding its facts compare. */
  facts_version: ColumnType<number, number | undefined, number>;
  /** The bulk operation holding the bank (migration 023), and until when its lease holds. */
  bulk_operation: ColumnType<string | null, string | null | undefined, string | null>;
  bulk_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** The snapshot a restore is putting back (migration 023): set while it runs, finished after a crash. */
  restoring: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface BankKeyTable {
  bank: string;
  /** SHA-256 (hex) of the certificate's SubjectPublicKeyInfo (DER). */
  key_sha256: string;
  bound_at: string;
}

export interface BatchRunTable {
  bank: string;
  slot: string;
  started_at: string;
  finished_at: string | null;
  executed: ColumnType<number | bigint, number | undefined, number>;
  rejected: ColumnType<number | bigint, number | undefined, number>;
}

/** One one-time code tried for a PSU (by a key of the PSU), kept for the lockout window (migration 007). */
export interface PsuCodeAttemptTable {
  psu_key: string;
  attempt_id: string;
  at: string;
}

/** What the database knows of a key kept outside it: its fingerprint, never the key. */
export interface InstallationKeyTable {
  name: string;
  fingerprint: string;
  created_at: string;
}

/** An account-information consent (migration 011, docs/ais.md). */
export interface AisConsentTable {
  id: string;
  bank: string;
  tpp_id: string;
  tpp_session_id: string;
  status: string;
  psu_context: string;
  agreement_id: string | null;
  customer_id: string | null;
  sca_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An account or card account a consent shares. */
export interface AisConsentAccountTable {
  consent_id: string;
  kind: string;
  resource_id: string;
}

/** Reads without the PSU present, per TPP, resource and Norwegian day (RTS 36(5)). */
export interface AisUnattendedReadTable {
  tpp_id: string;
  resource_key: string;
  day: string;
  reads: ColumnType<number | bigint, number, number>;
}

/** One execution of a standing order (migration 014): booked (ACSC) or rejected (RJCT), once. */
export interface PeriodicExecutionTable {
  payment_id: string;
  seq: SmallInt;
  bank: string;
  execution_date: string;
  status: string;
  status_reason: string | null;
  created_at: string;
}

export interface Database {
  account_transactions: AccountTransactionTable;
  card_accounts: CardAccountTable;
  card_transactions: CardTransactionTable;
  banks: BankTable;
  bank_keys: BankKeyTable;
  batch_runs: BatchRunTable;
  tpp_requests: TppRequestTable;
  notification_subscriptions: NotificationSubscriptionTable;
  notification_events: NotificationEventTable;
  notification_attempts: NotificationAttemptTable;
  notification_keys: NotificationKeyTable;
  request_bindings: RequestBindingTable;
  payments: PaymentTable;
  periodic_executions: PeriodicExecutionTable;
  transfers: TransferTable;
  customers: CustomerTable;
  accounts: AccountTable;
  agreements: AgreementTable;
  engagements: EngagementTable;
  psu_sessions: PsuSessionTable;
  authorisations: AuthorisationTable;
  baskets: BasketTable;
  basket_payments: BasketPaymentTable;
  psu_code_attempts: PsuCodeAttemptTable;
  installation_keys: InstallationKeyTable;
  ais_consents: AisConsentTable;
  ais_consent_accounts: AisConsentAccountTable;
  ais_unattended_reads: AisUnattendedReadTable;
  sandbox_snapshots: SandboxSnapshotTable;
  sandbox_scenarios: SandboxScenarioTable;
  core_handovers: CoreHandoverTable;
  core_report_cursors: CoreReportCursorTable;
  console_sessions: ConsoleSessionTable;
  console_link_uses: ConsoleLinkUseTable;
}
