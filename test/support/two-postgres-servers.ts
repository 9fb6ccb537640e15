import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { createMigratedTestDatabase } from './postgres.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { TPP_ID, tppFixtures } from './tpp-fixtures.js';

/** The test CA's certificate written into `dir`, for TRUSTED_CA_CERTS of a server process. */
export async function trustedCa(dir: string): Promise<string> {
  const path = join(dir, 'trusted.pem');
  writeFileSync(path, (await tppFixtures()).ca.certPem);
  return path;
}

/**
 * What the exactly-once tests of the batch run and the standing orders share: a new PostgreSQL
 * database seeded with the test's work, two server processes started on it at once (each runs what is
 * due as it starts), the test's `drive`, both stopped, then the test's `check` of the ledger with the
 * debtor's balance from before. The data folder goes to `dirs` for the test file to remove.
 */
export async function withTwoServersOnPostgres(options: {
  dirs: string[];
  chunkSize: number;
  debtor: string;
  seed: (store: PostgresStore) => Promise<string[]>;
  drive: (servers: [ServerProcess, ServerProcess]) => Promise<void>;
  check: (databaseUrl: string, ids: string[], before: bigint) => Promise<void>;
}): Promise<void> {
  const database = await createMigratedTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'psd2-two-servers-'));
  options.dirs.push(dir);
  try {
    const seeding = PostgresStore.open(database.url);
    const ids = await options.seed(seeding);
    const before = (await seeding.findAccount(TPP_ID, { bban: options.debtor }))!.balanceMinor;
    await seeding.close();
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: database.url,
      TRUSTED_CA_CERTS: await trustedCa(dir),
      BATCH_CHUNK_SIZE: String(options.chunkSize),
    };
    const servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    try {
      await options.drive(servers);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((s) => s.exited));
    }
    await options.check(database.url, ids, before);
  } finally {
    await database.drop();
  }
}
