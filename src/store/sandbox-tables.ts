import type { ColumnType } from 'kysely';
import type { Amount, SmallInt } from './column-types.js';

/**
 * Table types of what only the sandbox keeps (database.ts has the rest): a sandbox bank's snapshots and
 * armed scenarios, and its console's sessions and used links.
 */

/** A saved state of a sandbox bank (migration 018, docs/sandbox.md "Snapshots"): its rows, compressed. */
export interface SandboxSnapshotTable {
  id: string;
  bank: string;
  /** The TPP's label for it, if it gave one. */
  name: string | null;
  /** When it was saved, by the wall clock. */
  created_at: string;
  /** The bank's clock offset when it was saved: the clock a restore sets. */
  clock_offset_ms: Amount;
  row_count: SmallInt;
  /** The size of `data` as stored. */
  size_bytes: SmallInt;
  /** The last migration of the schema its rows were read in: a restore into another schema is refused. */
  migration: string;
  /** The rows, table by table (src/store/bank-rows-codec.ts). */
  data: Buffer;
}

/** A scenario a TPP's test armed in its sandbox bank (migration 019, domain/sandbox-scenarios.ts). */
export interface SandboxScenarioTable {
  id: string;
  bank: string;
  kind: string;
  /** The rule as armed, JSON. */
  rule: string;
  /** Matches left; null until disarmed (a maintenance window: until it ends). */
  times_left: ColumnType<number | bigint | null, number | null, number | null>;
  /** When the rule stops by itself (a maintenance window's end); null otherwise. */
  ends_at: string | null;
  created_at: string;
}

/** A sandbox console session (migration 024, docs/console.md): the cookie holds its secret, this its hash. */
export interface ConsoleSessionTable {
  /** SHA-256 (hex) of the session's secret. */
  secret_sha256: string;
  bank: string;
  /** The key (SHA-256, hex, of its SubjectPublicKeyInfo) that signed the request for the session's link. */
  key_sha256: string;
  created_at: string;
  expires_at: string;
}

/** A console link opened already, until it expires (migration 024): each link opens once. */
export interface ConsoleLinkUseTable {
  nonce: string;
  bank: string;
  expires_at: string;
}
