import type { LightMyRequestResponse } from 'fastify';
import type { ScriptedPsu } from './scripted-psu.js';
import { ACR_HIGH, type TestIdp, type TestIdpAccount } from './test-idp.js';

export interface IdpLogIn {
  account?: TestIdpAccount;
  acr?: string;
  /** The PSU presses cancel at the provider. */
  deny?: boolean;
}

/**
 * A PSU's browser between the bank's SCA page and the test identity provider, following the
 * redirects by hand: the bank's link (with the bank's cookies, through ScriptedPsu), then the
 * provider's pages with a cookie jar of their own, until the provider sends the browser back.
 */
export class IdpBrowser {
  private readonly cookies = new Map<string, string>();
  /** The address the bank sent the browser to at the provider. */
  authorizationUrl: URL | undefined;
  /** Whether the last log-in passed the provider's log-in page (its interaction). */
  askedToLogIn = false;

  constructor(
    private readonly idp: TestIdp,
    readonly psu: ScriptedPsu,
  ) {}

  /** Opens the SCA link: the bank's answer, a redirect to the provider when the link is valid. */
  open(link: string): Promise<LightMyRequestResponse> {
    return this.psu.open(link);
  }

  /** Logs in at the provider (after `open`): the callback address the provider sends the browser to. */
  async logIn(options: IdpLogIn = {}): Promise<URL> {
    const location = this.psu.last?.headers.location;
    if (this.psu.last?.statusCode !== 303 || typeof location !== 'string')
      throw new Error(
        `the bank did not send the browser to the provider: ${this.psu.last?.statusCode} ${this.psu.last?.body}`,
      );
    let url = new URL(location);
    this.authorizationUrl = url;
    const issuer = new URL(this.idp.issuer);
    this.askedToLogIn = false;
    for (let hops = 0; url.origin === issuer.origin; hops++) {
      if (hops > 10) throw new Error('the provider redirects without end');
      if (url.pathname.startsWith('/interaction/')) {
        this.askedToLogIn = true;
        url.searchParams.set('account', options.account ?? 'ola');
        url.searchParams.set('acr', options.acr ?? ACR_HIGH);
        if (options.deny === true) url.searchParams.set('deny', '1');
      }
      const answer = await fetch(url, { redirect: 'manual', headers: this.cookieHeader() });
      for (const line of answer.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
      }
      const next = answer.headers.get('location');
      if (answer.status < 300 || answer.status > 303 || next === null)
        throw new Error(`the provider answered ${answer.status}: ${await answer.text()}`);
      url = new URL(next, url);
    }
    return url;
  }

  /** Brings the provider's answer to the bank, as the browser follows the redirect. */
  back(callback: URL): Promise<LightMyRequestResponse> {
    return this.psu.open(callback.toString());
  }

  /** Opens the link, logs in at the provider and comes back: the bank's page after the log-in. */
  async signIn(link: string, options: IdpLogIn = {}): Promise<LightMyRequestResponse> {
    await this.open(link);
    return this.back(await this.logIn(options));
  }

  private cookieHeader(): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return cookie === '' ? {} : { cookie };
  }
}
