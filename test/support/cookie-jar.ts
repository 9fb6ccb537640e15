import type { LightMyRequestResponse } from 'fastify';

/**
 * The cookies a browser keeps between requests, for the page clients of the tests (ConsoleVisitor,
 * ScriptedPsu): what each answer's Set-Cookie sets, less what it clears (an empty value), sent back
 * as one Cookie header.
 */
export class CookieJar extends Map<string, string> {
  /** The Cookie header to send: none while the jar is empty. */
  header(): { cookie?: string } {
    const cookie = [...this].map(([k, v]) => `${k}=${v}`).join('; ');
    return cookie === '' ? {} : { cookie };
  }

  /** Keeps the cookies this answer sets and drops those it clears. */
  take(response: LightMyRequestResponse): void {
    const setCookie = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (value.join('=') === '') this.delete(name!.trim());
      else this.set(name!.trim(), value.join('='));
    }
  }
}
