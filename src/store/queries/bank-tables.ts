import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../database.js';

/** A table that holds rows of a sandbox bank, and the predicate that selects one bank's rows of it. */
export interface BankTable {
  table: keyof Database;
  /** The bank's rows: by a column of the row, or through the parent row the row belongs to. */
  where: (bank: string) => RawBuilder<boolean>;
  /**
   * Whether a snapshot holds its rows (docs/decisions/0277). The others are removed
   * with the bank but never saved nor restored: the snapshots themselves, the request bindings,
   * which are judged by the wall clock as signatures are, and the console's sessions and used links
   * (a restore neither signs a browser in nor out, nor makes a used link usable again): none is part
   * of the bank's state.
   */
  inSnapshot: boolean;
}

const byBank = (bank: string) => sql<boolean>`bank = ${bank}`;
const byTpp = (bank: string) => sql<boolean>`tpp_id = ${bank}`;
/** Payments and consents carry both; in the sandbox they are equal (Banks.of), production has one bank. */
const byBankOrTpp = (bank: string) => sql<boolean>`bank = ${bank} or tpp_id = ${bank}`;

/** BANK_TABLES with each table's name kept literal, for the check at the end of this file. */
const BANK_TABLE_LIST = [
  // The largest rows first, so that the bank's removal frees them in its first chunks.
  { table: 'sandbox_snapshots', where: byBank, inSnapshot: false },
  {
    table: 'account_transactions',
    where: (bank) => sql<boolean>`account_id in (select id from accounts where bank = ${bank})`,
    inSnapshot: true,
  },
  {
    table: 'card_transactions',
    where: (bank) => sql<boolean>`card_account_id in (select id from card_accounts where bank = ${bank})`,
    inSnapshot: true,
  },
  { table: 'engagements', where: byBank, inSnapshot: true },
  { table: 'card_accounts', where: byBank, inSnapshot: true },
  { table: 'accounts', where: byBank, inSnapshot: true },
  { table: 'agreements', where: byBank, inSnapshot: true },
  { table: 'psu_sessions', where: byTpp, inSnapshot: true },
  { table: 'customers', where: byBank, inSnapshot: true },
  {
    table: 'basket_payments',
    where: (bank) => sql<boolean>`basket_id in (select id from baskets where tpp_id = ${bank})`,
    inSnapshot: true,
  },
  { table: 'transfers', where: byTpp, inSnapshot: true },
  { table: 'periodic_executions', where: byBank, inSnapshot: true },
  { table: 'baskets', where: byTpp, inSnapshot: true },
  { table: 'payments', where: byBankOrTpp, inSnapshot: true },
  { table: 'authorisations', where: byTpp, inSnapshot: true },
  {
    table: 'ais_consent_accounts',
    where: (bank) => sql<boolean>`consent_id in (select id from ais_consents where bank = ${bank} or tpp_id = ${bank})`,
    inSnapshot: true,
  },
  { table: 'ais_consents', where: byBankOrTpp, inSnapshot: true },
  { table: 'ais_unattended_reads', where: byTpp, inSnapshot: true },
  { table: 'request_bindings', where: byTpp, inSnapshot: false },
  // Who is signed in to the bank's console, and which links were opened: access, not the bank's state.
  { table: 'console_sessions', where: byBank, inSnapshot: false },
  { table: 'console_link_uses', where: byBank, inSnapshot: false },
  { table: 'tpp_requests', where: byTpp, inSnapshot: true },
  // A subscription is part of its resource's state: a restored payment notifies as it did (docs/decisions/0329).
  { table: 'notification_subscriptions', where: byTpp, inSnapshot: true },
  // What was sent, or is to be sent: deliveries of changes already made, not the bank's state.
  { table: 'notification_attempts', where: byTpp, inSnapshot: false },
  { table: 'notification_events', where: byTpp, inSnapshot: false },
  { table: 'batch_runs', where: byBank, inSnapshot: true },
  // Armed scenarios are the bank's state a test set up: a restore brings back those armed at the save.
  { table: 'sandbox_scenarios', where: byBank, inSnapshot: true },
] as const satisfies readonly BankTable[];

/**
 * Every table holding a bank's rows, children before the rows they point to: the bank's removal
 * (retention-queries.ts, deleteBankChunk) and a restore delete in this order, a restore inserts in the
 * reverse, so no foreign key is ever left pointing at nothing. A table added to the database must be
 * named here or in NOT_BANK_SCOPED below (the check at the end fails the build otherwise), so neither
 * the removal nor the snapshot can forget it.
 */
export const BANK_TABLES: readonly BankTable[] = BANK_TABLE_LIST;

/** The tables whose rows a snapshot holds, in BANK_TABLES' order. */
export const SNAPSHOT_TABLES: readonly BankTable[] = BANK_TABLES.filter((t) => t.inSnapshot);

/** The tables that are not among BANK_TABLES, each with why. */
export const NOT_BANK_SCOPED = {
  banks:
    'the bank itself: a snapshot keeps its clock offset alone (not its owner, address or last use); the removal deletes the row last',
  bank_keys: 'who owns the bank: a restore must not bind or unbind a key; the removal deletes them last, with the bank',
  psu_code_attempts:
    'wrong one-time codes, by the PSU: a lockout is security, which a restore must not undo; kept one day (docs/retention.md)',
  installation_keys: "the installation's keys' fingerprints: of every bank",
  core_handovers:
    "payments handed to a bank's own core (CORE_URL): production's one bank only, never a sandbox bank's; they go with their payment (on delete cascade)",
  notification_keys: 'the keys every instance signs notifications with: of the installation, published to every TPP',
  core_report_cursors: "where the polling of a bank's own core stands: production's, of no sandbox bank",
} as const;

/** Fails the build when a table of Database is in neither list: each table needs a decision. */
type Listed = (typeof BANK_TABLE_LIST)[number]['table'] | keyof typeof NOT_BANK_SCOPED;
type Unlisted = Exclude<keyof Database, Listed>;
const everyTableListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyTableListed;
