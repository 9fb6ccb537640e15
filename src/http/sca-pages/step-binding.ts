import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NationalIdKey } from '../../domain/psu.js';
import { derivedKey, macMatches, macOf } from '../page-macs.js';

/** The cookie that names the browser a page was rendered for (path /sca, httpOnly: no script reads it). */
const BROWSER_COOKIE = 'sca_browser';
const BROWSER_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Binds each form's step token to the browser the page was rendered for (issue 31, 7). The CSRF pair
 * alone did not: an attacker's own cookie and token are a valid pair, and the victim's `step` posted
 * with them was accepted. The form's `step` field is the step token and an HMAC of it with the
 * browser's id (a random cookie of its own); a form whose MAC does not match the cookie it comes with
 * is refused before the step is looked up, so the step is not used up and the victim goes on.
 *
 * The key is derived from the installation's key (page-macs.ts): a page rendered by one instance is
 * posted to any other. The browser's id is not the CSRF
 * secret so that the binding does not depend on how the CSRF plugin keeps it.
 */
export class StepBinding {
  /** Derived at the first page, not when the app is built (the build compiles the routes without a key). */
  private key: Buffer | undefined;

  constructor(
    private readonly installationKey: NationalIdKey,
    private readonly secureCookies: boolean,
  ) {}

  /** The step token as the page's form carries it, bound to this browser (whose cookie is set if it has none). */
  bind(step: string, request: FastifyRequest, reply: FastifyReply): string {
    let browser = browserOf(request);
    if (browser === undefined) {
      browser = randomBytes(16).toString('base64url');
      reply.setCookie(BROWSER_COOKIE, browser, {
        path: '/sca',
        httpOnly: true,
        sameSite: 'lax',
        secure: this.secureCookies,
      });
    }
    return `${step}.${this.mac(step, browser)}`;
  }

  /** The step token of a posted form, or undefined when the form was not rendered for this browser. */
  unbind(field: string, request: FastifyRequest): string | undefined {
    const browser = browserOf(request);
    const dot = field.lastIndexOf('.');
    if (browser === undefined || dot < 0) return undefined;
    const step = field.slice(0, dot);
    return macMatches(this.keyOf(), `${browser}\n${step}`, field.slice(dot + 1)) ? step : undefined;
  }

  private mac(step: string, browser: string): string {
    return macOf(this.keyOf(), `${browser}\n${step}`);
  }

  private keyOf(): Buffer {
    this.key ??= derivedKey(this.installationKey, 'binds SCA step tokens to a browser');
    return this.key;
  }
}

function browserOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[BROWSER_COOKIE];
  return value !== undefined && BROWSER_ID.test(value) ? value : undefined;
}
