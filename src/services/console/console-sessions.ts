import type { Clock } from '../../domain/clock.js';
import { randomBase64url } from '../../domain/random-text.js';
import { CONSOLE_SESSIONS_PER_TPP, CONSOLE_SESSION_TTL_MS } from '../../domain/limits.js';
import type { ConsoleSessionStore } from '../../store/console-session-store.js';
import type { Banks } from '../banks.js';
import { hashToken } from '../sca/sca-links.js';

/** A console session: the TPP whose bank the console shows and acts on, until when. */
export interface ConsoleSession {
  /** The session's name in the database (SHA-256 of its secret): what its CSRF tokens are bound to. */
  id: string;
  tppId: string;
  expiresAt: Date;
}

/** A console link found genuine and in time (ConsoleAccess.enter): whose, asked for with which key. */
export interface ValidLink {
  tppId: string;
  keySha256: string;
  nonce: string;
  expiresAt: Date;
}

/** What opening a genuine link gives: a session and its cookie, or why not. */
export type SessionOpening =
  | { outcome: 'entered'; session: ConsoleSession; cookie: string }
  /** used: opened before, on any instance; key-unbound: the key that asked for the link is unbound since. */
  | { outcome: 'used' | 'key-unbound' };

/** A session's secret as the cookie holds it: 32 random bytes, base64url. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * The console's sessions (docs/console.md, docs/decisions/0290): kept
 * in the database, which holds only a hash of each session's secret; the browser's cookie holds the
 * secret. Every console request reads its session there, so a sign-out, an unbound key or a removed
 * bank ends it on every instance at once.
 */
export class ConsoleSessions {
  constructor(
    private readonly store: ConsoleSessionStore,
    private readonly banks: Banks,
    /** The wall clock (tests give their own): sessions expire by it, not by a bank's business clock. */
    private readonly clock: Clock,
    private readonly perTpp = CONSOLE_SESSIONS_PER_TPP,
  ) {}

  /** Opens a session for a link: once per link, while the link's key is bound to the TPP's bank. */
  async open(link: ValidLink): Promise<SessionOpening> {
    const now = this.clock.now();
    const secret = randomBase64url(32);
    const session = {
      id: hashToken(secret),
      tppId: link.tppId,
      expiresAt: new Date(now.getTime() + CONSOLE_SESSION_TTL_MS),
    };
    const opened = await this.store.openConsoleSession(
      {
        secretSha256: session.id,
        bank: this.banks.of(link.tppId),
        keySha256: link.keySha256,
        createdAt: now,
        expiresAt: session.expiresAt,
      },
      { nonce: link.nonce, expiresAt: link.expiresAt },
      this.perTpp,
    );
    if (opened !== 'opened') return { outcome: opened };
    return { outcome: 'entered', session, cookie: secret };
  }

  /** The session a cookie holds, while it is in time and its key bound; anything else is no session. */
  async sessionOf(cookie: string | undefined): Promise<ConsoleSession | undefined> {
    // Not even looked up unless it could be a secret this issued.
    if (cookie === undefined || !SECRET.test(cookie)) return undefined;
    const stored = await this.store.findConsoleSession(hashToken(cookie), this.clock.now());
    if (stored === undefined) return undefined;
    // The console is the sandbox's alone, where a TPP's bank is named by its id (Banks.of).
    return { id: stored.secretSha256, tppId: stored.bank, expiresAt: stored.expiresAt };
  }

  /** Whether a link was opened already, on any instance, as long as the database remembers it. */
  linkUsed(nonce: string): Promise<boolean> {
    return this.store.consoleLinkUsed(nonce);
  }

  /** Ends the session (sign-out) on every instance. */
  end(session: ConsoleSession): Promise<void> {
    return this.store.endConsoleSession(session.id);
  }
}
