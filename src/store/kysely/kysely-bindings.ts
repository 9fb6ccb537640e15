import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import * as bindings from '../queries/request-binding-queries.js';
import type { StoredTppRequest } from '../store.js';
import { findStoredRequest } from '../queries/tpp-request-queries.js';
import type { BindingStore } from '../binding-store.js';

/** The bindings' and the kept answers' part of the Kysely store: the same queries on either dialect; the engines' hot paths write and read what every signed request needs. */
export class KyselyBindings implements Omit<BindingStore, 'bindRequest' | 'durable'> {
  constructor(private readonly db: Kysely<Database>) {}

  purgeRequestBindings(now: Date): Promise<number> {
    return bindings.purgeRequestBindings(this.db, now);
  }

  async findTppRequest(tppId: string, requestId: string): Promise<StoredTppRequest | undefined> {
    return findStoredRequest(this.db, tppId, requestId);
  }
}
