import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CookieJar } from './cookie-jar.js';

/**
 * A PSU completing the SCA pages without a browser, as the README's curl sequence does: it keeps the
 * cookies the pages set and sends the forms' hidden fields back.
 */
export class ScriptedPsu {
  private readonly cookies = new CookieJar();
  private form: { action: string; fields: Record<string, string> } | undefined;
  last: LightMyRequestResponse | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly language = 'en',
  ) {}

  /** Opens an scaRedirect link (absolute, as the TPP got it). */
  async open(link: string): Promise<LightMyRequestResponse> {
    const url = new URL(link);
    return this.remember(
      await this.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: this.headers() }),
    );
  }

  async logIn(customerNumber: string, code: string): Promise<LightMyRequestResponse> {
    return this.submit({ customerNumber, code });
  }

  async approve(): Promise<LightMyRequestResponse> {
    return this.submit({ decision: 'approve' });
  }

  async decline(): Promise<LightMyRequestResponse> {
    return this.submit({ decision: 'decline' });
  }

  /** The login page's Cancel: leaves before logging in. */
  async cancel(): Promise<LightMyRequestResponse> {
    return this.submit({ decision: 'cancel' });
  }

  /** The consent page of a renewal: withdraws the consent in force instead of giving one. */
  async withdraw(): Promise<LightMyRequestResponse> {
    return this.submit({ decision: 'withdraw' });
  }

  /** The consent page: shares the accounts and card accounts with these ids (ticks exactly them). */
  async share(accountIds: readonly string[]): Promise<LightMyRequestResponse> {
    return this.submit(
      { decision: 'approve' },
      accountIds.map((id) => ['account', id]),
    );
  }

  /** The ids of the accounts the consent page offers, and those ticked when it opened. */
  offered(): { all: string[]; ticked: string[] } {
    const boxes = [
      ...(this.last?.body ?? '').matchAll(/<input type="checkbox" name="account" value="([^"]+)"( checked)?>/g),
    ];
    return { all: boxes.map((m) => m[1]!), ticked: boxes.filter((m) => m[2] !== undefined).map((m) => m[1]!) };
  }

  /** Sends the current page's form with these fields added (and repeated fields, such as ticked boxes). */
  async submit(
    fields: Record<string, string>,
    repeated: readonly [string, string][] = [],
  ): Promise<LightMyRequestResponse> {
    if (this.form === undefined) throw new Error(`the page has no form: ${this.last?.body}`);
    const params = new URLSearchParams({ ...this.form.fields, ...fields });
    for (const [name, value] of repeated) params.append(name, value);
    const body = params.toString();
    return this.remember(
      await this.app.inject({
        method: 'POST',
        url: this.form.action,
        headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      }),
    );
  }

  /** The same form sent again, as a replayed request would be. */
  async resubmit(
    previous: { action: string; fields: Record<string, string> },
    fields: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
    this.form = previous;
    return this.submit(fields);
  }

  get currentForm(): { action: string; fields: Record<string, string> } | undefined {
    return this.form === undefined ? undefined : { action: this.form.action, fields: { ...this.form.fields } };
  }

  /** Where a 303 sends the browser, with its query parameters. */
  redirect(): URL | undefined {
    const location = this.last?.headers.location;
    return typeof location === 'string' ? new URL(location) : undefined;
  }

  private headers(): Record<string, string> {
    return { 'accept-language': this.language, ...this.cookies.header() };
  }

  private remember(response: LightMyRequestResponse): LightMyRequestResponse {
    this.last = response;
    this.cookies.take(response);
    const action = /<form method="post" action="([^"]+)">/.exec(response.body)?.[1];
    const fields = Object.fromEntries(
      [...response.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    );
    this.form = action === undefined ? undefined : { action, fields };
    return response;
  }
}
