import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type {
  ConsoleSessionOpening,
  ConsoleSessionStore,
  NewConsoleSession,
  OpenedLink,
  StoredConsoleSession,
} from '../console-session-store.js';
import * as sessions from '../queries/console-session-queries.js';
import type { TransactionLock } from '../queries/transaction-lock.js';

/** The console sessions' part of the Kysely store: the same queries on either dialect. */
export class KyselyConsoleSessions implements ConsoleSessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: TransactionLock,
  ) {}

  openConsoleSession(session: NewConsoleSession, link: OpenedLink, perBank: number): Promise<ConsoleSessionOpening> {
    return sessions.openConsoleSession(this.db, this.lock, session, link, perBank);
  }

  findConsoleSession(secretSha256: string, now: Date): Promise<StoredConsoleSession | undefined> {
    return sessions.findConsoleSession(this.db, secretSha256, now);
  }

  endConsoleSession(secretSha256: string): Promise<void> {
    return sessions.endConsoleSession(this.db, secretSha256);
  }

  consoleLinkUsed(nonce: string): Promise<boolean> {
    return sessions.consoleLinkUsed(this.db, nonce);
  }
}
