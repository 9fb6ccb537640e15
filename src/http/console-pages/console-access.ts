import { randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import {
  CONSOLE_LINKS_PER_TPP,
  CONSOLE_LINKS_REMEMBERED,
  CONSOLE_LINK_TTL_MS,
  CONSOLE_SESSION_TTL_MS,
  CONSOLE_TOKEN_MAX_LENGTH,
} from '../../domain/limits.js';
import type { NationalIdKey } from '../../domain/psu.js';
import { derivedKey, macMatches, macOf } from '../page-macs.js';

/** The cookie that holds a console session: path /console, httpOnly, SameSite Strict. */
export const CONSOLE_SESSION_COOKIE = 'console_session';

/** A console session: the TPP whose bank the console shows and acts on, until when. */
export interface ConsoleSession {
  tppId: string;
  expiresAt: Date;
}

/** What opening a console link gives: a session, or why not. */
export type ConsoleEntry =
  | { outcome: 'entered'; session: ConsoleSession; cookie: string }
  /** Opened before: the TPP is told so that a browser with that TPP's session goes on to it. */
  | { outcome: 'used'; tppId: string }
  /** busy: the links every TPP shares are used up; too-many: this TPP's own (CONSOLE_LINKS_PER_TPP). */
  | { outcome: 'invalid' | 'expired' | 'busy' | 'too-many' };

/**
 * The keys to a TPP's console (docs/console.md): a short-lived link a signed request asks for, opened
 * once, which gives the browser a session cookie for that TPP alone. Both are the TPP's id and an
 * expiry, HMAC-signed; nothing is stored, so every instance that shares the installation's key
 * accepts what any other issued.
 *
 * The keys are derived from the installation's key (page-macs.ts, as the SCA pages' step binding's
 * is), each under a label of its own: a link is never a session, and neither is an SCA step's MAC.
 *
 * A link is single-use by its nonce, remembered in this process until the link expires: behind
 * several instances a link could be opened once at each within its five minutes (docs/console.md).
 */
export class ConsoleAccess {
  private linkKey: Buffer | undefined;
  private sessionKey: Buffer | undefined;
  /** Nonces of links opened here, with when each link expires and whose it is. */
  private readonly used = new Map<string, { expires: number; tppId: string }>();
  /** Links opened here and not yet expired, per TPP. */
  private readonly perTpp = new Map<string, number>();

  constructor(
    private readonly installationKey: NationalIdKey,
    /** The wall clock (tests give their own): links and sessions expire by it, not by a bank's business clock. */
    private readonly clock: Clock,
  ) {}

  /** A link's token for the TPP, and when it expires. */
  link(tppId: string): { token: string; expiresAt: Date } {
    const expiresAt = new Date(this.clock.now().getTime() + CONSOLE_LINK_TTL_MS);
    const nonce = randomBytes(16).toString('base64url');
    return { token: sign(this.keys().link, { t: tppId, e: expiresAt.getTime(), n: nonce }), expiresAt };
  }

  /** Opens a link: its session and cookie value when the token is genuine, in time and not used before. */
  enter(token: string): ConsoleEntry {
    const claims = verify(this.keys().link, token);
    if (claims === undefined || typeof claims.n !== 'string') return { outcome: 'invalid' };
    const now = this.clock.now().getTime();
    if (claims.e <= now) return { outcome: 'expired' };
    this.forgetExpired(now);
    if (this.used.has(claims.n)) return { outcome: 'used', tppId: claims.t };
    const opened = this.perTpp.get(claims.t) ?? 0;
    if (opened >= CONSOLE_LINKS_PER_TPP) return { outcome: 'too-many' };
    if (this.used.size >= CONSOLE_LINKS_REMEMBERED) return { outcome: 'busy' };
    this.used.set(claims.n, { expires: claims.e, tppId: claims.t });
    this.perTpp.set(claims.t, opened + 1);
    const session = { tppId: claims.t, expiresAt: new Date(now + CONSOLE_SESSION_TTL_MS) };
    return {
      outcome: 'entered',
      session,
      cookie: sign(this.keys().session, { t: session.tppId, e: session.expiresAt.getTime() }),
    };
  }

  /** The session a cookie holds, when it is genuine and not expired. */
  sessionOf(cookie: string | undefined): ConsoleSession | undefined {
    if (cookie === undefined) return undefined;
    const claims = verify(this.keys().session, cookie);
    if (claims === undefined || claims.e <= this.clock.now().getTime()) return undefined;
    return { tppId: claims.t, expiresAt: new Date(claims.e) };
  }

  private forgetExpired(now: number): void {
    // Entries go in in the order they were opened, and every link lives as long: the expired are first.
    for (const [nonce, { expires, tppId }] of this.used) {
      if (expires > now) break;
      this.used.delete(nonce);
      const left = (this.perTpp.get(tppId) ?? 1) - 1;
      if (left > 0) this.perTpp.set(tppId, left);
      else this.perTpp.delete(tppId);
    }
  }

  /** Derived at the first use, not when the app is built (the build compiles the routes without a key). */
  private keys(): { link: Buffer; session: Buffer } {
    this.linkKey ??= derivedKey(this.installationKey, 'signs sandbox console links');
    this.sessionKey ??= derivedKey(this.installationKey, 'signs sandbox console sessions');
    return { link: this.linkKey, session: this.sessionKey };
  }
}

/** What a token says: the TPP, the expiry in milliseconds since 1970, and a link's nonce. */
interface Claims {
  t: string;
  e: number;
  n?: string;
}

/** The claims as base64url JSON, a dot, and their HMAC-SHA256 (base64url). */
function sign(key: Buffer, claims: Claims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${macOf(key, payload)}`;
}

/** The claims of a token signed with this key; undefined for anything else, read no further than its MAC. */
function verify(key: Buffer, token: string): Claims | undefined {
  if (token.length > CONSOLE_TOKEN_MAX_LENGTH) return undefined;
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const payload = token.slice(0, dot);
  if (!macMatches(key, payload, token.slice(dot + 1))) return undefined;
  // Signed by this installation, so well formed; checked all the same, as data that crosses a boundary.
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Partial<Claims>;
  if (typeof claims.t !== 'string' || claims.t === '' || typeof claims.e !== 'number') return undefined;
  return claims as Claims;
}
