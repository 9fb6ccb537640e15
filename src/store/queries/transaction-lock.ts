import type { Transaction } from 'kysely';
import type { Database } from '../database.js';

/**
 * Serialises writers of one key within a transaction: the store's engine-specific lock (an advisory
 * lock on PostgreSQL; SQLite's write transaction holds the whole database), handed to the queries.
 */
export type TransactionLock = (trx: Transaction<Database>, key: string) => Promise<void>;
