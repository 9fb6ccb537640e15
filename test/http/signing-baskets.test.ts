import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import {
  CROSS_BORDER_PATH,
  OLA_ACCOUNTS,
  PSU_ID,
  createBulk,
  createCrossBorder,
  crossBorderBody,
} from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { PUBLIC_URL, type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Signing baskets (spec: "Signing basket", "States and transitions" rules 1 to 5, endpoint 1): a TPP
 * groups cross-border payments of one PSU, one SCA signs them all, each payment keeps its own
 * status and the basket shows the worst case (RJCT, RCVD, PATC, ACTC from worst to best).
 */
/** The wall clock: these tests do not move time. */
class WallClock implements Clock {
  now(): Date {
    return new Date();
  }
}

const BASKETS_PATH = '/v1/signing-baskets';
const OLA = '13039319955';
/** An account of Kari's (12085592767): Ola cannot pay from it. */
const KARI_ACCOUNT = '15061012378';
const REDIRECT_URI = 'https://tpp.example/basket-done?state=xyz';

let t: TestApp;

before(async () => {
  t = await startTestApp({ clock: new WallClock() });
});
after(() => t.close());

interface Link {
  href: string;
  verbs: string[];
}
interface CreatedBasket {
  basketId: string;
  transactionStatus: string;
  _links: Record<string, Link>;
}

/** A cross-border payment created without PSU-Context: no SCA link of its own, meant for a basket. */
async function basketPayment(
  options: { debtor?: string; headers?: Record<string, string>; as?: CertificateAndKey } = {},
): Promise<string> {
  const body = { ...crossBorderBody(), debtorAccount: { bban: options.debtor ?? OLA_ACCOUNTS[0], currency: 'NOK' } };
  const response = await createCrossBorder(t, {
    body,
    without: ['PSU-Context'],
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.as === undefined ? {} : { as: options.as }),
  });
  assert.equal(response.statusCode, 201, response.body);
  const created = response.json() as { paymentId: string; _links: Record<string, Link | undefined> };
  assert.equal(created._links.scaRedirect, undefined, 'a payment without PSU-Context has no scaRedirect of its own');
  return created.paymentId;
}

/** A cross-border payment from Ola's account WITH PSU-Context: it has its own scaRedirect. */
async function singlePayment(): Promise<{ paymentId: string; link: string }> {
  const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' } };
  const response = await createCrossBorder(t, { body });
  assert.equal(response.statusCode, 201, response.body);
  const created = response.json() as { paymentId: string; _links: Record<string, Link> };
  assert.ok(created._links.scaRedirect, 'a payment with PSU-Context has its own scaRedirect');
  return { paymentId: created.paymentId, link: created._links.scaRedirect.href };
}

interface BasketRequest {
  body?: unknown;
  headers?: Record<string, string>;
  without?: string[];
  requestId?: string;
}

function basketHeaders(extra: Record<string, string> = {}, without: string[] = []): Record<string, string> {
  const headers: Record<string, string> = {
    'PSU-ID': PSU_ID,
    'PSU-IP-Address': '192.0.2.10',
    'TPP-Redirect-URI': REDIRECT_URI,
    'TPP-Session-ID': 'basket-session-7',
    ...extra,
  };
  for (const name of without) delete headers[name];
  return headers;
}

function postBasket(paymentIds: string[], request: BasketRequest = {}): Promise<LightMyRequestResponse> {
  return t.signed({
    method: 'POST',
    url: BASKETS_PATH,
    body: request.body ?? { paymentIds },
    headers: basketHeaders(request.headers, request.without),
    ...(request.requestId === undefined ? {} : { sign: { requestId: request.requestId } }),
  });
}

async function createBasket(paymentIds: string[]): Promise<CreatedBasket> {
  const response = await postBasket(paymentIds);
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as CreatedBasket;
}

function basketPath(basketId: string): string {
  return `${BASKETS_PATH}/${encodeURIComponent(basketId)}`;
}

async function basketStatus(basketId: string): Promise<string> {
  const response = await t.signed({ method: 'GET', url: `${basketPath(basketId)}/status` });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json() as { transactionStatus: string }).transactionStatus;
}

async function paymentStatus(
  paymentId: string,
): Promise<{ transactionStatus: string; tppMessages?: { text?: string }[] }> {
  const response = await t.signed({ method: 'GET', url: `${CROSS_BORDER_PATH}/${paymentId}/status` });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as { transactionStatus: string; tppMessages?: { text?: string }[] };
}

async function paymentStatuses(paymentIds: string[]): Promise<string[]> {
  return Promise.all(paymentIds.map(async (id) => (await paymentStatus(id)).transactionStatus));
}

/** Ola opens a link and logs in: the confirmation page. */
async function olaLogsIn(link: string): Promise<{ psu: ScriptedPsu; page: LightMyRequestResponse }> {
  const psu = new ScriptedPsu(t.app);
  const login = await psu.open(link);
  assert.equal(login.statusCode, 200, login.body);
  const page = await psu.logIn(OLA, '123456');
  assert.equal(page.statusCode, 200, page.body);
  return { psu, page };
}

/** Each payment card of a confirmation page, by payment id. */
function cardsOf(html: string): Map<string, string> {
  const cards = new Map<string, string>();
  for (const part of html.split('<div class="card payment" data-payment-id="').slice(1)) {
    const id = part.slice(0, part.indexOf('"'));
    cards.set(id, part.slice(0, part.indexOf('</div>')));
  }
  return cards;
}

async function signedAlone(link: string): Promise<void> {
  const { psu } = await olaLogsIn(link);
  const done = await psu.approve();
  assert.equal(done.statusCode, 303, done.body);
}

describe('creating and reading a signing basket', () => {
  it('creates a basket of three cross-border payments: 201 with basketId, RCVD, self, status and scaRedirect links and a Location header', async () => {
    const ids = [await basketPayment(), await basketPayment(), await basketPayment({ debtor: OLA_ACCOUNTS[1] })];
    const response = await postBasket(ids);
    assert.equal(response.statusCode, 201, response.body);
    const body = response.json() as CreatedBasket;
    assert.equal(typeof body.basketId, 'string');
    assert.ok(body.basketId.length > 0);
    assert.equal(body.transactionStatus, 'RCVD');
    const self = basketPath(body.basketId);
    assert.deepEqual(body._links.self, { href: self, verbs: ['GET', 'DELETE'] });
    assert.deepEqual(body._links.status, { href: `${self}/status`, verbs: ['GET'] });
    assert.ok(body._links.scaRedirect, 'the basket has its own scaRedirect');
    assert.ok(body._links.scaRedirect.href.startsWith(`${PUBLIC_URL}/sca/`), body._links.scaRedirect.href);
    assert.deepEqual(body._links.scaRedirect.verbs, ['GET']);
    assert.equal(response.headers.location, `${PUBLIC_URL}${self}`);
  });

  it('reads the basket as exactly its payments in the order given, RCVD, and its self and status links', async () => {
    const ids = [await basketPayment(), await basketPayment({ debtor: OLA_ACCOUNTS[1] }), await basketPayment()];
    const created = await createBasket(ids);
    const response = await t.signed({ method: 'GET', url: created._links.self!.href });
    assert.equal(response.statusCode, 200, response.body);
    const self = basketPath(created.basketId);
    assert.deepEqual(response.json(), {
      payments: ids,
      transactionStatus: 'RCVD',
      _links: { self: { href: self, verbs: ['GET', 'DELETE'] }, status: { href: `${self}/status`, verbs: ['GET'] } },
    });
    const status = await t.signed({ method: 'GET', url: created._links.status!.href });
    assert.equal(status.statusCode, 200, status.body);
    assert.deepEqual(status.json(), { transactionStatus: 'RCVD' });
    assert.deepEqual(
      await paymentStatuses(ids),
      ['RCVD', 'RCVD', 'RCVD'],
      'putting payments in a basket authorises none of them',
    );
  });

  it('answers an unknown basket with 404 RESOURCE_UNKNOWN and the error body, on the read and on the status', async () => {
    const unknown = `enc!!${randomUUID()}`;
    const read = assertErrorBody(await t.signed({ method: 'GET', url: basketPath(unknown) }), 404, 'RESOURCE_UNKNOWN');
    assert.equal(read.tppMessages?.[0]?.path, 'path:basketId');
    assert.ok((read.message ?? '').includes(`no signing basket ${unknown} is known to this TPP`), read.message);
    assertErrorBody(await t.signed({ method: 'GET', url: `${basketPath(unknown)}/status` }), 404, 'RESOURCE_UNKNOWN');
  });

  it('does not show a basket to another TPP: 404 RESOURCE_UNKNOWN on read, status and delete, and the basket stays', async () => {
    const created = await createBasket([await basketPayment()]);
    const other = t.fixtures.otherTpp;
    assertErrorBody(
      await t.signed({ method: 'GET', url: basketPath(created.basketId), as: other }),
      404,
      'RESOURCE_UNKNOWN',
    );
    assertErrorBody(
      await t.signed({ method: 'GET', url: `${basketPath(created.basketId)}/status`, as: other }),
      404,
      'RESOURCE_UNKNOWN',
    );
    assertErrorBody(
      await t.signed({ method: 'DELETE', url: basketPath(created.basketId), as: other }),
      404,
      'RESOURCE_UNKNOWN',
    );
    assert.equal(await basketStatus(created.basketId), 'RCVD');
  });

  it('challenges a read naming an unknown PSU-ID with 401 whose body is only _links.scaRedirect', async () => {
    const created = await createBasket([await basketPayment()]);
    const response = await t.signed({
      method: 'GET',
      url: basketPath(created.basketId),
      headers: { 'PSU-ID': randomUUID() },
    });
    assert.equal(response.statusCode, 401, response.body);
    const body = response.json() as { _links: { scaRedirect: Link } };
    const href = body._links?.scaRedirect?.href;
    assert.equal(typeof href, 'string');
    assert.ok(href.startsWith(`${PUBLIC_URL}/sca/`), href);
    assert.deepEqual(body, { _links: { scaRedirect: { href, verbs: ['GET'] } } });
  });
});

describe('signing a basket with one SCA', () => {
  it('signs all three payments with one SCA: the page lists them, approval returns to the TPP, and the basket and each payment become ACTC', async () => {
    const ids = [await basketPayment(), await basketPayment({ debtor: OLA_ACCOUNTS[1] }), await basketPayment()];
    const basket = await createBasket(ids);
    const { psu, page } = await olaLogsIn(basket._links.scaRedirect!.href);
    assert.match(page.body, /Test TPP AS asks you to approve several payments at once/);
    assert.match(page.body, /Logged in as Ola Nordmann/);
    assert.deepEqual([...cardsOf(page.body).keys()], ids, "the page lists the three payments in the basket's order");
    assert.doesNotMatch(page.body, /cannot be approved/);
    assert.match(page.body, /id="approve"/);
    const done = await psu.approve();
    assert.equal(done.statusCode, 303, done.body);
    const back = psu.redirect()!;
    assert.equal(`${back.origin}${back.pathname}`, 'https://tpp.example/basket-done');
    assert.equal(back.searchParams.get('state'), 'xyz');
    assert.equal(back.searchParams.get('psu-id'), PSU_ID);
    assert.equal(back.searchParams.get('tpp-session-id'), 'basket-session-7');
    assert.equal(back.searchParams.get('message'), null);
    assert.equal(await basketStatus(basket.basketId), 'ACTC');
    assert.deepEqual(await paymentStatuses(ids), ['ACTC', 'ACTC', 'ACTC']);
  });

  it('reports the worst case: a payment Ola cannot pay from is rejected while the others are authorised, and the basket is RJCT', async () => {
    const ids = [
      await basketPayment(),
      await basketPayment({ debtor: KARI_ACCOUNT }),
      await basketPayment({ debtor: OLA_ACCOUNTS[1] }),
    ];
    const [first, foreign, last] = ids as [string, string, string];
    const basket = await createBasket(ids);
    const { psu, page } = await olaLogsIn(basket._links.scaRedirect!.href);
    const cards = cardsOf(page.body);
    assert.deepEqual([...cards.keys()], ids);
    assert.match(cards.get(foreign)!, /This payment cannot be approved: account 15061012378 does not belong to you/);
    assert.doesNotMatch(cards.get(first)!, /cannot be approved/);
    assert.doesNotMatch(cards.get(last)!, /cannot be approved/);
    assert.match(page.body, /id="approve"/, 'the others can still be approved');
    const done = await psu.approve();
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(psu.redirect()!.searchParams.get('psu-id'), PSU_ID);

    assert.equal((await paymentStatus(first)).transactionStatus, 'ACTC');
    assert.equal((await paymentStatus(last)).transactionStatus, 'ACTC');
    const rejected = await paymentStatus(foreign);
    assert.equal(rejected.transactionStatus, 'RJCT');
    assert.match(rejected.tppMessages?.[0]?.text ?? '', /account 15061012378 does not belong to you/);
    assert.equal(await basketStatus(basket.basketId), 'RJCT');
    const read = await t.signed({ method: 'GET', url: basketPath(basket.basketId) });
    assert.deepEqual(
      (read.json() as { payments: string[] }).payments,
      ids,
      'a rejected payment stays listed in the basket',
    );
    assert.equal((read.json() as { transactionStatus: string }).transactionStatus, 'RJCT');
  });

  it('is PATC when a payment of the basket was signed through its own link and the others not yet; signing the basket then makes it ACTC', async () => {
    const single = await singlePayment();
    const ids = [single.paymentId, await basketPayment(), await basketPayment()];
    const basket = await createBasket(ids);
    await signedAlone(single.link);
    assert.deepEqual(await paymentStatuses(ids), ['ACTC', 'RCVD', 'RCVD']);
    assert.equal(await basketStatus(basket.basketId), 'PATC');
    const read = await t.signed({ method: 'GET', url: basketPath(basket.basketId) });
    assert.equal((read.json() as { transactionStatus: string }).transactionStatus, 'PATC');
    assertErrorBody(
      await t.signed({ method: 'DELETE', url: basketPath(basket.basketId) }),
      405,
      'CANCELLATION_INVALID',
    );

    const { psu } = await olaLogsIn(basket._links.scaRedirect!.href);
    assert.equal((await psu.approve()).statusCode, 303);
    assert.deepEqual(await paymentStatuses(ids), ['ACTC', 'ACTC', 'ACTC']);
    assert.equal(await basketStatus(basket.basketId), 'ACTC');
  });

  it('rejects every payment when the PSU declines the basket SCA, tells the TPP message=declined, and the basket is RJCT', async () => {
    const ids = [await basketPayment(), await basketPayment({ debtor: OLA_ACCOUNTS[1] }), await basketPayment()];
    const basket = await createBasket(ids);
    const { psu } = await olaLogsIn(basket._links.scaRedirect!.href);
    const done = await psu.decline();
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(psu.redirect()!.searchParams.get('message'), 'declined');
    assert.equal(psu.redirect()!.searchParams.get('tpp-session-id'), 'basket-session-7');
    for (const id of ids) {
      const status = await paymentStatus(id);
      assert.equal(status.transactionStatus, 'RJCT');
      assert.match(status.tppMessages?.[0]?.text ?? '', /declined by the PSU/);
    }
    assert.equal(await basketStatus(basket.basketId), 'RJCT');
  });
});

describe('refusing a basket that cannot be made', () => {
  it('refuses a bulk payment with 400 REFERENCE_MIX_INVALID at its path $.paymentIds[i] (rule 4), and creates nothing', async () => {
    const single = await basketPayment();
    const bulk = await createBulk(t);
    assert.equal(bulk.statusCode, 201, bulk.body);
    const bulkId = (bulk.json() as { paymentId: string }).paymentId;
    const error = assertErrorBody(await postBasket([single, bulkId]), 400, 'REFERENCE_MIX_INVALID');
    assert.deepEqual(
      error.tppMessages?.map((m) => [m.code, m.path]),
      [['BAD_REQUEST', '$.paymentIds[1]']],
      "the tppMessage carries the code of the specification's list",
    );
    assert.match(
      error.tppMessages?.[0]?.text ?? '',
      /bulk payment, which cannot be put in a signing basket.* \(REFERENCE_MIX_INVALID\)$/,
    );
    const again = await postBasket([single]);
    assert.equal(
      again.statusCode,
      201,
      'the payment that was listed with the bulk payment was not taken into a basket',
    );
  });

  it("refuses consentIds with 400 FORMAT_ERROR at $.consentIds: the bank's consents are bank-offered and have no id; an empty list is the Berlin Group shape and is taken", async () => {
    const single = await basketPayment();
    const error = assertErrorBody(
      await postBasket([single], { body: { paymentIds: [single], consentIds: ['enc!!some-consent'] } }),
      400,
      'FORMAT_ERROR',
    );
    assert.deepEqual(
      error.tppMessages?.map((m) => m.path),
      ['$.consentIds'],
    );
    assert.match(error.tppMessages?.[0]?.text ?? '', /consents have no id .*POST \/v1\/bank-offered-consents/);
    assert.equal((await postBasket([single], { body: { paymentIds: [single], consentIds: [] } })).statusCode, 201);
  });

  it('refuses an unknown payment id with 400 at its path', async () => {
    const unknown = `enc!!${randomUUID()}`;
    const error = assertErrorBody(await postBasket([await basketPayment(), unknown]), 400, 'FORMAT_ERROR');
    assert.deepEqual(
      error.tppMessages?.map((m) => m.path),
      ['$.paymentIds[1]'],
    );
    assert.match(error.tppMessages?.[0]?.text ?? '', /no payment .* is known to this TPP/);
  });

  it('refuses a payment of another TPP with 400, as a payment unknown to this TPP', async () => {
    const foreign = await basketPayment({ as: t.fixtures.otherTpp });
    const error = assertErrorBody(await postBasket([foreign]), 400, 'FORMAT_ERROR');
    assert.deepEqual(
      error.tppMessages?.map((m) => m.path),
      ['$.paymentIds[0]'],
    );
    assert.match(error.tppMessages?.[0]?.text ?? '', /is known to this TPP/);
  });

  it('refuses the same payment id twice with 400 at the repeated entry', async () => {
    const id = await basketPayment();
    const error = assertErrorBody(await postBasket([id, await basketPayment(), id]), 400, 'FORMAT_ERROR');
    assert.deepEqual(
      error.tppMessages?.map((m) => m.path),
      ['$.paymentIds[2]'],
    );
    assert.match(error.tppMessages?.[0]?.text ?? '', /repeats payment/);
  });

  it('refuses a payment already authorised on its own with 409 REFERENCE_STATUS_INVALID', async () => {
    const single = await singlePayment();
    await signedAlone(single.link);
    const error = assertErrorBody(
      await postBasket([await basketPayment(), single.paymentId]),
      409,
      'REFERENCE_STATUS_INVALID',
    );
    assert.equal(error.tppMessages?.[0]?.path, '$.paymentIds[1]');
    assert.match(
      error.tppMessages?.[0]?.text ?? '',
      /is ACTC; only payments waiting for SCA \(RCVD\) can be put in a basket/,
    );
  });

  it('refuses a payment already in another basket with 409 REFERENCE_STATUS_INVALID naming that basket', async () => {
    const id = await basketPayment();
    const first = await createBasket([id]);
    const error = assertErrorBody(await postBasket([await basketPayment(), id]), 409, 'REFERENCE_STATUS_INVALID');
    assert.ok((error.message ?? '').includes(`already in signing basket ${first.basketId}`), error.message);
    assert.deepEqual((await t.signed({ method: 'GET', url: basketPath(first.basketId) })).json().payments, [id]);
  });

  it('refuses a payment initiated for another PSU with 400 at its path', async () => {
    const otherPsu = await t.newPsu();
    const theirs = await basketPayment({ headers: { 'PSU-ID': otherPsu } });
    const error = assertErrorBody(await postBasket([await basketPayment(), theirs]), 400, 'FORMAT_ERROR');
    assert.deepEqual(
      error.tppMessages?.map((m) => m.path),
      ['$.paymentIds[1]'],
    );
    assert.match(error.tppMessages?.[0]?.text ?? '', /initiated for another PSU/);
  });

  it('refuses more than 25 payment ids with 400 saying at most 25 entries', async () => {
    const ids = Array.from({ length: 26 }, () => `enc!!${randomUUID()}`);
    const error = assertErrorBody(await postBasket(ids), 400, 'FORMAT_ERROR');
    assert.deepEqual(
      error.tppMessages?.map((m) => m.path),
      ['$.paymentIds'],
    );
    assert.match(error.tppMessages?.[0]?.text ?? '', /at most 25 entries/);
  });

  it('refuses an empty list of payment ids with 400', async () => {
    const error = assertErrorBody(await postBasket([]), 400, 'FORMAT_ERROR');
    assert.equal(error.tppMessages?.[0]?.path, '$.paymentIds');
    assert.match(error.tppMessages?.[0]?.text ?? '', /at least 1 entry/);
  });

  it('refuses a request with neither PSU-ID nor X-PSU-IDENTITY with 400 HTTP_HEADER_REQUIRED', async () => {
    const error = assertErrorBody(
      await postBasket([await basketPayment()], { without: ['PSU-ID'] }),
      400,
      'HTTP_HEADER_REQUIRED',
    );
    assert.equal(error.tppMessages?.[0]?.path, 'header:PSU-ID');
  });
});

describe('deleting a basket', () => {
  it('deletes a basket while nothing is authorised (204), then answers 404, and its payments can go in a new basket', async () => {
    const ids = [await basketPayment(), await basketPayment()];
    const basket = await createBasket(ids);
    const deleted = await t.signed({ method: 'DELETE', url: basketPath(basket.basketId) });
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal(deleted.body, '');
    assertErrorBody(await t.signed({ method: 'GET', url: basketPath(basket.basketId) }), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(await t.signed({ method: 'DELETE', url: basketPath(basket.basketId) }), 404, 'RESOURCE_UNKNOWN');
    assert.deepEqual(await paymentStatuses(ids), ['RCVD', 'RCVD'], 'deleting the basket leaves its payments');
    const again = await createBasket(ids);
    assert.notEqual(again.basketId, basket.basketId);
    const read = await t.signed({ method: 'GET', url: basketPath(again.basketId) });
    assert.deepEqual((read.json() as { payments: string[] }).payments, ids);
  });

  it('answers the link of a deleted basket with a page saying it does not work, and signs nothing', async () => {
    const ids = [await basketPayment(), await basketPayment()];
    const basket = await createBasket(ids);
    assert.equal((await t.signed({ method: 'DELETE', url: basketPath(basket.basketId) })).statusCode, 204);
    const psu = new ScriptedPsu(t.app);
    const page = await psu.open(basket._links.scaRedirect!.href);
    assert.equal(page.statusCode, 410);
    assert.match(page.body, /This link does not work/);
    assert.equal(psu.currentForm, undefined, 'no form to log in with');
    assert.deepEqual(await paymentStatuses(ids), ['RCVD', 'RCVD']);
  });

  it('does not send the PSU back as approved when the basket was deleted while they were on the page (message=basket-cancelled), and signs nothing', async () => {
    const ids = [await basketPayment(), await basketPayment()];
    const basket = await createBasket(ids);
    const { psu } = await olaLogsIn(basket._links.scaRedirect!.href);
    assert.equal((await t.signed({ method: 'DELETE', url: basketPath(basket.basketId) })).statusCode, 204);
    const page = await psu.approve();
    assert.equal(page.statusCode, 200, 'a page to read, not a redirect as if approved');
    assert.match(page.body, /The payments were withdrawn/);
    assert.match(page.body, /message=basket-cancelled/);
    assert.deepEqual(await paymentStatuses(ids), ['RCVD', 'RCVD']);
  });

  it('tells the PSU and the TPP (message=payment-cancelled) when a payment of the basket was cancelled while the PSU was on the page; the others are approved as shown', async () => {
    const ids = [await basketPayment(), await basketPayment()];
    const basket = await createBasket(ids);
    const { psu } = await olaLogsIn(basket._links.scaRedirect!.href);
    assert.equal((await t.signed({ method: 'DELETE', url: `${CROSS_BORDER_PATH}/${ids[0]}` })).statusCode, 204);
    const page = await psu.approve();
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /The payment was cancelled/);
    assert.match(page.body, /message=payment-cancelled/);
    assert.match(page.body, /state=xyz/);
    assert.deepEqual(await paymentStatuses(ids), ['CANC', 'ACTC']);
  });

  it('refuses to delete a signed basket with 405 CANCELLATION_INVALID, and the basket stays ACTC', async () => {
    const ids = [await basketPayment(), await basketPayment()];
    const basket = await createBasket(ids);
    const { psu } = await olaLogsIn(basket._links.scaRedirect!.href);
    assert.equal((await psu.approve()).statusCode, 303);
    const error = assertErrorBody(
      await t.signed({ method: 'DELETE', url: basketPath(basket.basketId) }),
      405,
      'CANCELLATION_INVALID',
    );
    assert.match(error.message ?? '', /is ACTC/);
    assert.equal(await basketStatus(basket.basketId), 'ACTC');
  });
});

describe('retrying a basket create (X-Request-ID)', () => {
  it('answers a retry with the same X-Request-ID and body with the same basket', async () => {
    const ids = [await basketPayment(), await basketPayment()];
    const requestId = randomUUID();
    const first = await postBasket(ids, { requestId });
    assert.equal(first.statusCode, 201, first.body);
    const retry = await postBasket(ids, { requestId });
    assert.equal(retry.statusCode, 201, retry.body);
    assert.deepEqual(retry.json(), first.json());
    assert.equal(retry.headers.location, first.headers.location);
  });

  it('refuses the same X-Request-ID with another body with 409 CONFLICT', async () => {
    const ids = [await basketPayment(), await basketPayment()];
    const requestId = randomUUID();
    const first = await postBasket(ids, { requestId });
    assert.equal(first.statusCode, 201, first.body);
    const other = await postBasket([ids[0]!], { requestId });
    const error = assertErrorBody(other, 409, 'CONFLICT');
    assert.equal(error.tppMessages?.[0]?.path, 'header:X-Request-ID');
    const read = await t.signed({ method: 'GET', url: basketPath((first.json() as CreatedBasket).basketId) });
    assert.deepEqual((read.json() as { payments: string[] }).payments, ids, 'the first basket is unchanged');
  });
});
