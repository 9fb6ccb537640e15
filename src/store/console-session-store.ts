/**
 * The sandbox console's sessions and used links (docs/console.md): in the database, so that a
 * sign-out, an unbound key and a used link hold on every instance at once.
 */
export interface ConsoleSessionStore {
  /**
   * Opens a session for a console link, in one transaction: records the link's nonce as used until
   * the link expires ('used' when it was already, on any instance), and the session, when the key
   * that asked for the link is still bound to the bank ('key-unbound' otherwise); then ends the
   * bank's oldest sessions beyond `perBank`.
   */
  openConsoleSession(session: NewConsoleSession, link: OpenedLink, perBank: number): Promise<ConsoleSessionOpening>;
  /** The session of this secret's hash, unless it expired by `now` or its key is no longer bound to its bank. */
  findConsoleSession(secretSha256: string, now: Date): Promise<StoredConsoleSession | undefined>;
  /** Ends a session (sign-out); nothing when it is gone already. */
  endConsoleSession(secretSha256: string): Promise<void>;
  /**
   * Whether a link of this nonce was opened, as far as the database still knows: a used link is
   * remembered until the retention job removes it after the link expired (docs/retention.md).
   */
  consoleLinkUsed(nonce: string): Promise<boolean>;
}

/** A console session as stored: the SHA-256 (hex) of its secret, never the secret itself. */
export interface StoredConsoleSession {
  secretSha256: string;
  bank: string;
  /** The key that signed the request for the session's link (SHA-256, hex, of its SubjectPublicKeyInfo). */
  keySha256: string;
  createdAt: Date;
  expiresAt: Date;
}

export type NewConsoleSession = StoredConsoleSession;

/** The link a session is opened by: its nonce, and until when it could be opened. */
export interface OpenedLink {
  nonce: string;
  expiresAt: Date;
}

export type ConsoleSessionOpening = 'opened' | 'used' | 'key-unbound';
