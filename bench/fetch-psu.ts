/**
 * A PSU completing the SCA pages with fetch, as the README's curl sequence does: keeps the cookie the
 * first page sets (the CSRF secret) and sends each form's hidden fields back. For a bench's set-up.
 */
export class FetchPsu {
  private cookie = '';
  private fields: Record<string, string> = {};
  private html = '';

  constructor(private readonly baseUrl: string) {}

  async open(link: string): Promise<void> {
    await this.remember(await fetch(link, { headers: this.headers(), redirect: 'manual' }));
  }

  async logIn(customerNumber: string, code: string): Promise<void> {
    await this.post('/sca/login', [
      ['customerNumber', customerNumber],
      ['code', code],
    ]);
  }

  /** The ids of the accounts the consent page offers. */
  offered(): string[] {
    return [...this.html.matchAll(/<input type="checkbox" name="account" value="([^"]+)"/g)].map((m) => m[1]!);
  }

  /** Shares these accounts; returns where the browser is sent back to. */
  async share(accountIds: readonly string[]): Promise<URL> {
    const answer = await this.post('/sca/decision', [
      ['decision', 'approve'],
      ...accountIds.map((id) => ['account', id] as [string, string]),
    ]);
    const location = answer.headers.get('location');
    if (answer.status !== 303 || location === null)
      throw new Error(`the consent page answered ${answer.status}: ${this.html.slice(0, 300)}`);
    return new URL(location);
  }

  private async post(path: string, pairs: [string, string][]): Promise<Response> {
    const form = new URLSearchParams(this.fields);
    for (const [name, value] of pairs) form.append(name, value);
    const answer = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    await this.remember(answer);
    return answer;
  }

  private headers(): Record<string, string> {
    return this.cookie === '' ? {} : { cookie: this.cookie };
  }

  private async remember(answer: Response): Promise<void> {
    const set = answer.headers.get('set-cookie');
    if (set !== null) this.cookie = set.split(';')[0]!;
    this.html = await answer.text();
    this.fields = Object.fromEntries(
      [...this.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    );
  }
}
