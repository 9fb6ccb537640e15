import { randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import {
  CONSOLE_LINKS_PER_TPP,
  CONSOLE_LINKS_REMEMBERED,
  CONSOLE_LINK_TTL_MS,
  CONSOLE_TOKEN_MAX_LENGTH,
} from '../../domain/limits.js';
import type { NationalIdKey } from '../../domain/psu.js';
import type { ValidLink } from '../../services/console/console-sessions.js';
import { derivedKey, macMatches, macOf } from '../page-macs.js';

/** The cookie that holds a console session's secret: path /console, httpOnly, SameSite Strict. */
export const CONSOLE_SESSION_COOKIE = 'console_session';

/** What opening a console link finds: a genuine link in time, or why not. */
export type LinkEntry =
  | { outcome: 'valid'; link: ValidLink }
  /** Opened before here: the TPP is told so that a browser with that TPP's session goes on to it. */
  | { outcome: 'used'; tppId: string }
  /**
   * Genuine but past its expiry: whose it is and its nonce, so that the caller can ask the database
   * whether it was opened (then it says "used", which is what the developer needs to know).
   */
  | { outcome: 'expired'; tppId: string; nonce: string }
  /** busy: the links every TPP shares are used up; too-many: this TPP's own (CONSOLE_LINKS_PER_TPP). */
  | { outcome: 'invalid' | 'busy' | 'too-many' };

/**
 * The way into a TPP's console (docs/console.md): a short-lived link a signed request asks for,
 * naming the TPP and the key that signed the request, HMAC-signed, so every instance that shares the
 * installation's key takes what any other issued. The session it opens is kept in the database
 * (services/console/console-sessions.ts), which also makes the link single-use on every instance.
 *
 * The key is derived from the installation's key (page-macs.ts, as the SCA pages' step binding's
 * is), under a label of its own: a link is never an SCA step's MAC.
 *
 * This process also remembers the links opened here until they expire, to hold each TPP to
 * CONSOLE_LINKS_PER_TPP and to refuse a link it knows used without asking the database.
 *
 * The links of /docs (`tpp docs`), which bind a key the browser makes to the TPP's bank, are made
 * and opened the same way by an instance of their own, under their own label.
 */
export class ConsoleAccess {
  private linkKey: Buffer | undefined;
  /** Nonces of links opened here, with when each link expires and whose it is. */
  private readonly used = new Map<string, { expires: number; tppId: string }>();
  /** Links opened here and not yet expired, per TPP. */
  private readonly perTpp = new Map<string, number>();

  constructor(
    private readonly installationKey: NationalIdKey,
    /** The wall clock (tests give their own): links expire by it, not by a bank's business clock. */
    private readonly clock: Clock,
    /** What the links are for, the label their key is derived under: a link of one kind never opens another. */
    private readonly purpose: 'console' | 'docs' = 'console',
  ) {}

  /** A link's token for the TPP, asked for by a request signed with this key, and when it expires. */
  link(tppId: string, keySha256: string): { token: string; expiresAt: Date } {
    const expiresAt = new Date(this.clock.now().getTime() + CONSOLE_LINK_TTL_MS);
    const nonce = randomBytes(16).toString('base64url');
    return { token: sign(this.key(), { t: tppId, k: keySha256, e: expiresAt.getTime(), n: nonce }), expiresAt };
  }

  /** Opens a link: what it says when the token is genuine, in time and not opened here before. */
  enter(token: string): LinkEntry {
    const claims = verify(this.key(), token);
    if (claims === undefined) return { outcome: 'invalid' };
    const now = this.clock.now().getTime();
    // Used before expired: a link opened once and tried again later was used, which is why it
    // does not open; "expired" would send the developer looking at the clock.
    if (this.used.has(claims.n)) return { outcome: 'used', tppId: claims.t };
    if (claims.e <= now) return { outcome: 'expired', tppId: claims.t, nonce: claims.n };
    this.forgetExpired(now);
    const opened = this.perTpp.get(claims.t) ?? 0;
    if (opened >= CONSOLE_LINKS_PER_TPP) return { outcome: 'too-many' };
    if (this.used.size >= CONSOLE_LINKS_REMEMBERED) return { outcome: 'busy' };
    this.used.set(claims.n, { expires: claims.e, tppId: claims.t });
    this.perTpp.set(claims.t, opened + 1);
    return {
      outcome: 'valid',
      link: { tppId: claims.t, keySha256: claims.k, nonce: claims.n, expiresAt: new Date(claims.e) },
    };
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
  private key(): Buffer {
    this.linkKey ??= derivedKey(
      this.installationKey,
      this.purpose === 'console' ? 'signs sandbox console links' : 'signs sandbox docs links',
    );
    return this.linkKey;
  }
}

/** What a link says: the TPP, the key that asked for it, the expiry in milliseconds since 1970, and its nonce. */
interface Claims {
  t: string;
  k: string;
  e: number;
  n: string;
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
  if (typeof claims.k !== 'string' || typeof claims.n !== 'string') return undefined;
  return claims as Claims;
}
