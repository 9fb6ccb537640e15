import { type HtmlForm, type HtmlPage, readHtmlPage } from './html-forms.js';
import { causeOf } from './cause.js';
import { type HttpExchangeAnswer, exchange } from './http-exchange.js';

export interface ScaApproval {
  /** The `scaRedirect` href of the bank's answer; a path is read against `server`. */
  link: string;
  /** The PSU's customer number (national identity number in the sandbox). */
  customerNumber: string;
  /** The one-time code; the sandbox takes 123456 (and refuses 000000). */
  code?: string;
  /** Decline instead of approving. */
  decline?: boolean;
  /** Press Cancel on the log-in page instead of logging in (the customer number is then not used). */
  cancel?: boolean;
  /**
   * A consent's accounts to share, each by its account number (BBAN or IBAN, dots and spaces
   * ignored), its masked card number or the id the page gives it. Left out: the boxes the page ticks.
   */
  accounts?: readonly string[];
  /** The address a relative link is read against, such as http://127.0.0.1:8080. */
  server?: string;
}

export interface ScaOutcome {
  /** What the PSU did: approved, declined, or connected (an SCA that only establishes a PSU session). */
  decision: 'approved' | 'declined' | 'connected' | 'cancelled';
  /** Where the bank sent the browser back (the TPP's redirect URI with psu-id and tpp-session-id), if it did. */
  location: string | undefined;
  psuId: string | undefined;
  tppSessionId: string | undefined;
  /** The bank's closing page's outcome when it shows one instead of sending the browser back. */
  outcome: string | undefined;
  /** The accounts shared, as the page names them (a consent only). */
  shared: string[];
}

/** The SCA could not be completed as asked; the message carries the bank page's own words. */
export class ScaFlowError extends Error {}

/** Pages one SCA can take: a log-in, at most one retry of it, a decision, the outcome. */
const PAGES_MAX = 6;
/** Outcomes of the bank's closing page that mean the PSU's decision went through. */
const DONE = new Set(['approved', 'declined', 'cancelled', 'consent-given', 'consent-declined', 'session-established']);
const DONE_AS_WELL = new Set(['cancellation-approved', 'cancellation-declined']);

/**
 * Completes an SCA the way a PSU's browser does: opens the link, logs in on the bank's form, then
 * approves or declines what the page shows (a payment, a basket, a cancellation, or a consent's
 * accounts), sending each form's own fields and the cookie the pages set. Gives back where the bank
 * sends the browser; throws a ScaFlowError with the page's words when the bank refuses a step.
 */
export async function approveSca(approval: ScaApproval): Promise<ScaOutcome> {
  const browser = new FormBrowser(approval.server);
  let answer = await browser.open(approval.link);
  // The bank's own form never answers the link with a redirect; a bank that logs its PSUs in at its
  // identity provider (BankID, docs/sca.md "Production log-in") does, and only a person can log in there.
  if (answer.location !== undefined)
    throw new ScaFlowError(
      `the bank sends the PSU to its identity provider to log in (${new URL(answer.location).origin}): open the link in a browser; this toolkit logs in on the bank's own form only`,
    );
  let loggedIn = false;
  let decided = false;
  let shared: string[] = [];
  for (let pages = 0; pages < PAGES_MAX; pages++) {
    if (answer.location !== undefined) return outcomeOf(approval, answer.location, undefined, shared, decided);
    const page = answer.page;
    const form = page.forms.find((f) => f.method === 'post');
    if (form === undefined) return outcomeOf(approval, undefined, page, shared, decided);
    if (form.textInputs.includes('customerNumber')) {
      if (loggedIn) throw new ScaFlowError(`the bank did not accept the log-in: ${wordsOf(page)}`);
      loggedIn = true;
      if (approval.cancel === true) {
        answer = await browser.submit(answer.url, form, [['decision', 'cancel']]);
        continue;
      }
      answer = await browser.submit(answer.url, form, [
        ['customerNumber', approval.customerNumber],
        ['code', approval.code ?? SANDBOX_CODE],
      ]);
    } else if (form.buttons.some((b) => b.name === 'decision')) {
      const chosen = accountsToShare(form, approval);
      shared = chosen.map((box) => box.label || box.value);
      decided = true;
      answer = await browser.submit(answer.url, form, [
        decisionOf(form, page, approval.decline === true),
        ...chosen.map((box): [string, string] => [box.name, box.value]),
      ]);
    } else throw new ScaFlowError(`the page has a form this toolkit does not know: ${wordsOf(page)}`);
  }
  throw new ScaFlowError(`the SCA took more than ${PAGES_MAX} pages`);
}

const SANDBOX_CODE = '123456';

function decisionOf(form: HtmlForm, page: HtmlPage, decline: boolean): [string, string] {
  const wanted = decline ? 'decline' : 'approve';
  const button = form.buttons.find((b) => b.name === 'decision' && b.value === wanted);
  if (button === undefined)
    throw new ScaFlowError(`the page offers no way to ${wanted}${page.alerts.length > 0 ? `: ${wordsOf(page)}` : ''}`);
  return [button.name, button.value];
}

/** The boxes to tick: those named, or those the page ticks; naming accounts on a payment is a mistake. */
function accountsToShare(form: HtmlForm, approval: ScaApproval): HtmlForm['checkboxes'] {
  const boxes = form.checkboxes.filter((box) => box.name === 'account');
  if (approval.accounts === undefined || approval.decline === true) return boxes.filter((box) => box.checked);
  if (boxes.length === 0)
    throw new ScaFlowError('accounts were named, but the page shares no accounts (it is not a consent)');
  return approval.accounts.map((wanted) => {
    const box = boxes.find((b) => b.value === wanted || numbersIn(b.label).includes(plainNumber(wanted)));
    if (box === undefined)
      throw new ScaFlowError(
        `the page offers no account ${wanted}; it offers ${boxes.map((b) => b.label || b.value).join('; ')}`,
      );
    return box;
  });
}

function plainNumber(text: string): string {
  return text.replace(/[\s.]/g, '').toUpperCase();
}

/** Account numbers as the page writes them (1506.10.12343, an IBAN in groups of four, a masked card). */
function numbersIn(label: string): string[] {
  return (label.match(/[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4})+|[\d.*Xx]{6,}/g) ?? []).map(plainNumber);
}

function outcomeOf(
  approval: ScaApproval,
  location: string | undefined,
  page: HtmlPage | undefined,
  shared: string[],
  decided: boolean,
): ScaOutcome {
  if (page !== undefined && !(DONE.has(page.outcome ?? '') || DONE_AS_WELL.has(page.outcome ?? '')))
    throw new ScaFlowError(`the bank ended the SCA: ${wordsOf(page)}`);
  const back = location === undefined ? undefined : new URL(location);
  return {
    decision:
      approval.cancel === true
        ? 'cancelled'
        : !decided
          ? 'connected'
          : approval.decline === true
            ? 'declined'
            : 'approved',
    location,
    psuId: back?.searchParams.get('psu-id') ?? undefined,
    tppSessionId: back?.searchParams.get('tpp-session-id') ?? undefined,
    outcome: page?.outcome,
    shared,
  };
}

function wordsOf(page: HtmlPage): string {
  const words = [...page.alerts, ...(page.outcomeText === undefined ? [] : [page.outcomeText])];
  return words.length > 0 ? words.join(' ') : 'the page says nothing this toolkit can read';
}

interface Answer {
  url: string;
  page: HtmlPage;
  location: string | undefined;
}

/** Follows forms as a browser does: one cookie jar, form actions read against the page's address. */
class FormBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly server: string | undefined) {}

  open(link: string): Promise<Answer> {
    return this.request(new URL(link, this.server).toString(), { method: 'GET' });
  }

  submit(pageUrl: string, form: HtmlForm, fields: [string, string][]): Promise<Answer> {
    const body = new URLSearchParams([...form.hidden, ...fields]);
    return this.request(new URL(form.action, pageUrl).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }

  private async request(url: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
    let response: HttpExchangeAnswer;
    try {
      response = await exchange({
        ...init,
        url,
        headers: { ...init.headers, accept: 'text/html', 'accept-language': 'en', ...this.cookieHeader() },
      });
    } catch (error) {
      throw new ScaFlowError(`cannot reach the bank's page at ${url}: ${causeOf(error)}`);
    }
    for (const line of response.headers['set-cookie'] ?? []) {
      const pair = line.split(';')[0]!;
      const equals = pair.indexOf('=');
      if (equals > 0) this.cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
    const location = response.headers.location;
    const text = response.text;
    if (response.status >= 300 && response.status < 400 && location !== undefined)
      return { url, page: readHtmlPage(''), location: new URL(location, url).toString() };
    if (!(response.headers['content-type'] ?? '').includes('text/html'))
      throw new ScaFlowError(`${url} answered ${response.status}, not a page: ${text.slice(0, 300)}`);
    return { url, page: readHtmlPage(text), location: undefined };
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}
