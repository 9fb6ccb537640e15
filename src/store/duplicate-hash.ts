import { hash } from 'node:crypto';

/**
 * The key the logical-duplicate check finds a transfer by (transfers.duplicate_hash, migration 012):
 * a signed 64-bit integer, the first 8 bytes of the transfer's duplicate key (a SHA-256 of its parts,
 * src/domain/payments/payment.ts) XOR the first 8 bytes of the SHA-256 of its TPP and PSU.
 *
 * Why not the columns themselves: the index on (tpp_id, psu_key, duplicate_key) held about 170 bytes
 * an entry, 25 to a page, and each transfer went into it at a random place, so a bulk of 1 000 dirtied
 * about as many index pages, each written whole to the WAL at its commit. An integer entry is a tenth
 * of that; in isolation (200 000 transfers, bulks of 1 000) a transfer's insert went from 46 to 21 µs
 * of CPU and from 91 to 38 µs of wall time (bench/README.md, "Bulk").
 *
 * The TPP and PSU are mixed in so that one TPP's transfers never share a key with another's: a TPP
 * that stores many equal transfers (allowLogicalDuplicate=true) slows only its own look-ups. The
 * integer only finds candidates; the look-up compares tpp_id, psu_key and duplicate_key on the row.
 * PostgreSQL computes the same value in SQL for the rows stored before migration 012.
 */
export function duplicateHashScope(tppId: string, psuKey: string): bigint {
  return BigInt(`0x${hash('sha256', `${tppId}\n${psuKey}`, 'hex').slice(0, 16)}`);
}

/** The transfer's key under its `scope` (duplicateHashScope of its TPP and PSU). */
export function duplicateHash(scope: bigint, duplicateKey: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${duplicateKey.slice(0, 16)}`) ^ scope);
}
