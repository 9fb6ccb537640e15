import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { addDays, osloDate } from '../src/domain/clock.js';
import { SORTED_BASE64URL } from '../src/domain/time-ordered-id.js';
import { ACCOUNT_TRANSACTION_INSERT_COLUMNS } from '../src/store/queries/account-transaction-columns.js';

/** Statements per transaction row are the seeding's cost: this many rows go in one INSERT. */
const ROWS_PER_INSERT = 100;
const COLUMNS = ACCOUNT_TRANSACTION_INSERT_COLUMNS;
type Row = (string | number | null)[];

/** The counterpart of every seeded transaction: an account of another bank. */
const COUNTERPART = { name: 'Aftenposten AS', iban: 'NO6290491105991', bban: '90491105991' };

/**
 * Appends `count` transactions to an account straight into the SQLite file of a stopped server, as
 * the sandbox's POST …/transactions would store them (src/store/queries/sandbox-transaction-queries.ts
 * addTransactions): the next dense positions after the account's transaction_count, which is raised
 * by `count`; alternately a credit (the account as creditor) and a debit (the account as debtor);
 * booking dates spread over the last thousand days in posting order, none after yesterday, value
 * date the booking date; ids in the store's form (see ascendingIds). One database transaction, so a failure leaves the account as it was.
 * Returns the seeding's milliseconds.
 */
export function seedAccountTransactions(file: string, accountId: string, count: number): number {
  const started = performance.now();
  const db = new BetterSqlite3(file);
  try {
    // The server is stopped and the file is a throw-away bench copy: no fsync, a rollback journal in
    // memory (WAL would write every page twice, to the log and back), a cache that holds the indexes.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -524288');
    const account = db
      .prepare('select iban, bban, currency, transaction_count from accounts where id = ?')
      .get(accountId) as { iban: string; bban: string; currency: string; transaction_count: number } | undefined;
    if (account === undefined) throw new Error(`no account ${accountId} in ${file}`);
    const values = `(${COLUMNS.map(() => '?').join(', ')})`;
    const sql = (rows: number) =>
      `insert into account_transactions (${COLUMNS.join(', ')}) values ${Array.from({ length: rows }, () => values).join(', ')}`;
    const insertMany = db.prepare(sql(ROWS_PER_INSERT));
    const first = account.transaction_count + 1;
    const dateOf = seededBookingDates(count);
    const createdAt = new Date().toISOString();
    const ids = ascendingIds(count);
    const row = (i: number): Row => {
      const credit = i % 2 === 0;
      const date = dateOf(i);
      // In the order of COLUMNS: the account, the read columns, created_at.
      return [
        accountId,
        ids(i),
        first + i,
        credit ? 150_000 + (i % 997) * 100 : -(12_000 + (i % 389) * 100),
        account.currency,
        date,
        date,
        `Faktura ${first + i}`,
        credit ? 'Bench Kunde' : COUNTERPART.name,
        credit ? account.iban : COUNTERPART.iban,
        credit ? account.bban : COUNTERPART.bban,
        credit ? COUNTERPART.name : 'Bench Kunde',
        credit ? COUNTERPART.iban : account.iban,
        credit ? COUNTERPART.bban : account.bban,
        'PMNT',
        '',
        '',
        'OTHR',
        null,
        '',
        createdAt,
      ];
    };
    db.transaction(() => {
      let i = 0;
      for (; i + ROWS_PER_INSERT <= count; i += ROWS_PER_INSERT) {
        const params: Row = [];
        for (let r = i; r < i + ROWS_PER_INSERT; r++) params.push(...row(r));
        insertMany.run(params);
      }
      if (i < count) {
        const params: Row = [];
        for (let r = i; r < count; r++) params.push(...row(r));
        db.prepare(sql(count - i)).run(params);
      }
      db.prepare('update accounts set transaction_count = transaction_count + ? where id = ?').run(count, accountId);
    })();
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  return performance.now() - started;
}

/** Days the seeded transactions' booking dates spread over, ending yesterday. */
const SEEDED_DAYS = 1000;

/** The booking date of the i-th (from 0) of `count` seeded transactions: in posting order over the last SEEDED_DAYS days, none after yesterday. */
export function seededBookingDates(count: number): (i: number) => string {
  const lastDay = addDays(osloDate(new Date()), -1);
  const dates = Array.from({ length: SEEDED_DAYS }, (_, d) => addDays(lastDay, d - SEEDED_DAYS + 1));
  return (i) => dates[Math.floor((i * SEEDED_DAYS) / count)]!;
}

/**
 * Ids in the store's form (`enc!!` and 24 base64url characters) whose first five characters count up:
 * appended at the end of the primary key's index instead of at random places in it, which halves the
 * seeding. The id's other 19 characters are random, as the store's are.
 */
function ascendingIds(count: number): (i: number) => string {
  const random = randomBytes(19 * count);
  return (i) => {
    let prefix = '';
    for (let n = i, k = 0; k < 5; k++, n = Math.floor(n / 64)) prefix = SORTED_BASE64URL[n % 64]! + prefix;
    let rest = '';
    for (let k = 19 * i; k < 19 * i + 19; k++) rest += SORTED_BASE64URL[random[k]! & 63]!;
    return `enc!!${prefix}${rest}`;
  };
}
