import type { RequestBinding } from '../domain/request-binding.js';
import type { StoredTppRequest } from './tpp-request-records.js';

/** Every signed request's X-Request-ID binding (the replay guard), and the answers kept for creates, so a retry gets the same answer. */
export interface BindingStore {
  /**
   * Binds a signed request's X-Request-ID to what it asked for, unless it is bound already (and its
   * binding still in force at `now`): then the earlier binding is returned and nothing is written.
   * The binding is committed (every instance sees it) but may not be on disk before durable().
   */
  bindRequest(binding: RequestBinding, now: Date): Promise<RequestBinding | undefined>;
  /** Resolves once every commit made so far is on disk: a request that bound its X-Request-ID awaits it before it is answered. */
  durable(): Promise<void>;
  /** Removes bindings whose signatures can no longer be accepted; returns how many. */
  purgeRequestBindings(now: Date): Promise<number>;
  /** The request this TPP sent with this X-Request-ID, if it created something. */
  findTppRequest(tppId: string, requestId: string): Promise<StoredTppRequest | undefined>;
}
