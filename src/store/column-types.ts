import type { ColumnType } from 'kysely';

/** An integer column that SQLite returns as bigint and PostgreSQL (int4) as number. */
export type SmallInt = ColumnType<number | bigint, number, number>;
/** An amount in integer minor units, or another bigint column: bigint on both engines. */
export type Amount = ColumnType<bigint, bigint, bigint>;
