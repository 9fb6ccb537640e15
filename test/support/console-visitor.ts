import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CookieJar } from './cookie-jar.js';

/**
 * A browser on the sandbox console without a browser: it keeps the cookies the pages set (dropping
 * those cleared), follows nothing by itself, and posts the forms with the CSRF token of the page it
 * read last.
 */
export class ConsoleVisitor {
  readonly cookies = new CookieJar();
  last: LightMyRequestResponse | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly language = 'en',
  ) {}

  /** Opens an address (a console link as the API gave it, absolute, or a path). */
  async open(address: string): Promise<LightMyRequestResponse> {
    const url = new URL(address, 'http://console.test');
    return this.remember(
      await this.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: this.headers() }),
    );
  }

  /** Posts a form of the console with these fields and the last page's CSRF token, or this one (null: none). */
  async post(path: string, fields: Record<string, string>, csrf?: string | null): Promise<LightMyRequestResponse> {
    const params = new URLSearchParams(fields);
    const token = csrf === undefined ? this.csrf() : csrf;
    if (token !== null && token !== undefined) params.set('_csrf', token);
    return this.remember(
      await this.app.inject({
        method: 'POST',
        url: path,
        headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: params.toString(),
      }),
    );
  }

  /** The CSRF token of the last page's forms. */
  csrf(): string | undefined {
    return /<input type="hidden" name="_csrf" value="([^"]*)">/.exec(this.last?.body ?? '')?.[1];
  }

  /** The text of the last page without its tags, spaces collapsed. */
  text(): string {
    return (this.last?.body ?? '')
      .replace(/<style>[\s\S]*?<\/style>/, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
  }

  private headers(): Record<string, string> {
    return { 'accept-language': this.language, ...this.cookies.header() };
  }

  private remember(response: LightMyRequestResponse): LightMyRequestResponse {
    this.last = response;
    this.cookies.take(response);
    return response;
  }
}
