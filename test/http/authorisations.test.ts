import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Clock } from '../../src/domain/clock.js';
import { MAX_AUTHORISATIONS_PER_RESOURCE } from '../../src/domain/limits.js';
import {
  OLA_ACCOUNTS,
  PSU_ID,
  bulkBody,
  createBulk,
  createCrossBorder,
  createHeaders,
  crossBorderBody,
} from '../support/payment-requests.js';
import { PERIODIC_PATH, periodicBody } from '../support/periodic-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { TPP_ID } from '../support/tpp-fixtures.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Berlin Group's authorisation sub-resources as real clients call them (docs/sca.md, "Authorisation
 * sub-resources"): the create answer's links, POST, GET and GET {id} of …/authorisations for
 * payments, bulk payments, standing orders and signing baskets, and the cancellation SCA the platform
 * mandates for a payment or standing order already authorised (DELETE 202,
 * …/cancellation-authorisations, the PSU's approval, CANC).
 */
class ManualClock implements Clock {
  current = new Date();
  now(): Date {
    return new Date(this.current);
  }
}

const OLA = '13039319955';
const clock = new ManualClock();
let t: TestApp;

before(async () => {
  t = await startTestApp({ clock });
});
after(() => t.close());
beforeEach(() => {
  clock.current = new Date();
});

interface Link {
  href: string;
  verbs: string[];
}
interface Created {
  paymentId: string;
  _links: Record<string, Link>;
}

function json<T = Record<string, unknown>>(response: LightMyRequestResponse, status: number): T {
  assert.equal(response.statusCode, status, response.body);
  return response.json() as T;
}

const get = (url: string) => t.signed({ method: 'GET', url });
const post = (url: string) =>
  t.signed({ method: 'POST', url, headers: { 'TPP-Redirect-URI': 'https://tpp.example/back?state=s1' } });

/** A payment from Ola's own account: with PSU-Context (its own scaRedirect) or without (startAuthorisation). */
async function olaPayment(options: { psuContext?: boolean; bulk?: boolean } = {}): Promise<Created> {
  const debtorAccount = { bban: OLA_ACCOUNTS[0], currency: 'NOK' };
  const without = options.psuContext === false ? ['PSU-Context'] : [];
  const response = options.bulk
    ? await createBulk(t, { body: { ...bulkBody(), debtorAccount }, without })
    : await createCrossBorder(t, { body: { ...crossBorderBody(), debtorAccount }, without });
  return json<Created>(response, 201);
}

/** Ola signs (or declines) on the page an scaRedirect opens. */
async function sign(link: string, approve = true, language = 'en'): Promise<ScriptedPsu> {
  const psu = new ScriptedPsu(t.app, language);
  await psu.open(link);
  const confirm = await psu.logIn(OLA, '123456');
  assert.equal(confirm.statusCode, 200, confirm.body);
  await (approve ? psu.approve() : psu.decline());
  return psu;
}

async function statusOf(created: Created): Promise<string> {
  return json<{ transactionStatus: string }>(await get(created._links.status!.href), 200).transactionStatus;
}

async function authorisedPayment(options: { bulk?: boolean } = {}): Promise<Created> {
  const created = await olaPayment(options);
  await sign(created._links.scaRedirect!.href);
  assert.equal(await statusOf(created), 'ACTC');
  return created;
}

describe("a payment's links and authorisations", () => {
  it('links a payment created without PSU-Context to startAuthorisation (POST …/authorisations), as the platform does, and one created with it to its scaRedirect', async () => {
    const explicit = await olaPayment({ psuContext: false });
    const self = explicit._links.self!.href;
    assert.deepEqual(explicit._links, {
      self: { href: self, verbs: ['GET', 'DELETE'] },
      status: { href: `${self}/status`, verbs: ['GET'] },
      startAuthorisation: { href: `${self}/authorisations`, verbs: ['POST'] },
    });
    const implicit = await olaPayment();
    assert.ok(implicit._links.scaRedirect);
    assert.equal(implicit._links.startAuthorisation, undefined);
  });

  it('starts an authorisation: 201 with scaStatus started, authorisationId and the links scaRedirect and scaStatus; signing through it makes the payment ACTC', async () => {
    const created = await olaPayment({ psuContext: false });
    const started = json<{ scaStatus: string; authorisationId: string; _links: Record<string, Link> }>(
      await post(created._links.startAuthorisation!.href),
      201,
    );
    assert.equal(started.scaStatus, 'started');
    assert.deepEqual(started._links.scaStatus, {
      href: `${created._links.self!.href}/authorisations/${started.authorisationId}`,
      verbs: ['GET'],
    });
    assert.equal(started._links.scaRedirect?.verbs[0], 'GET');
    assert.deepEqual(json(await get(started._links.scaStatus!.href), 200), { scaStatus: 'started' });
    await sign(started._links.scaRedirect!.href);
    assert.equal(await statusOf(created), 'ACTC');
    assert.deepEqual(json(await get(started._links.scaStatus!.href), 200), { scaStatus: 'finalised' });
  });

  it('lists the authorisations of a payment, the one started with it first, and reads each scaStatus: started, psuAuthenticated, finalised', async () => {
    const created = await olaPayment();
    const list = `${created._links.self!.href}/authorisations`;
    const [first] = json<{ authorisationIds: string[] }>(await get(list), 200).authorisationIds;
    assert.ok(first, 'the authorisation the create started is listed');
    const again = json<{ authorisationId: string; _links: Record<string, Link> }>(await post(list), 201);
    assert.deepEqual(json(await get(list), 200), { authorisationIds: [first, again.authorisationId] });
    const psu = new ScriptedPsu(t.app);
    await psu.open(again._links.scaRedirect!.href);
    assert.deepEqual(json(await get(`${list}/${again.authorisationId}`), 200), { scaStatus: 'started' });
    await psu.logIn(OLA, '123456');
    assert.deepEqual(json(await get(`${list}/${again.authorisationId}`), 200), { scaStatus: 'psuAuthenticated' });
    await psu.approve();
    assert.deepEqual(json(await get(`${list}/${again.authorisationId}`), 200), { scaStatus: 'finalised' });
    assert.deepEqual(json(await get(`${list}/${first}`), 200), { scaStatus: 'started' }, 'the unused one is untouched');
  });

  it('reads a declined authorisation as failed, and one whose link expired unused as failed with SCA_EXPIRED', async () => {
    const declined = await olaPayment();
    await sign(declined._links.scaRedirect!.href, false);
    const list = `${declined._links.self!.href}/authorisations`;
    const [id] = json<{ authorisationIds: string[] }>(await get(list), 200).authorisationIds;
    assert.deepEqual(json(await get(`${list}/${id}`), 200), { scaStatus: 'failed' });
    const unused = await olaPayment();
    const unusedList = `${unused._links.self!.href}/authorisations`;
    const [unusedId] = json<{ authorisationIds: string[] }>(await get(unusedList), 200).authorisationIds;
    clock.current = new Date(clock.current.getTime() + 16 * 60_000);
    const expired = json<{ scaStatus: string; tppMessages: { category: string; code: string; text: string }[] }>(
      await get(`${unusedList}/${unusedId}`),
      200,
    );
    assert.equal(expired.scaStatus, 'failed');
    assert.deepEqual(
      expired.tppMessages.map((m) => [m.category, m.code]),
      [['ERROR', 'SCA_EXPIRED']],
    );
    assert.match(expired.tppMessages[0]!.text, /did not complete the SCA before its link expired/);
  });

  it('lists and reads the authorisations of a bulk payment the same way', async () => {
    const created = await olaPayment({ bulk: true, psuContext: false });
    const started = json<{ authorisationId: string; _links: Record<string, Link> }>(
      await post(created._links.startAuthorisation!.href),
      201,
    );
    const list = `${created._links.self!.href}/authorisations`;
    assert.deepEqual(json(await get(list), 200), { authorisationIds: [started.authorisationId] });
    await sign(started._links.scaRedirect!.href);
    assert.deepEqual(json(await get(`${list}/${started.authorisationId}`), 200), { scaStatus: 'finalised' });
    assert.equal(await statusOf(created), 'ACTC');
  });

  it('answers 404 RESOURCE_UNKNOWN for an authorisation id not of this payment, and for a payment of another TPP', async () => {
    const created = await olaPayment();
    const other = await olaPayment();
    const [otherId] = json<{ authorisationIds: string[] }>(
      await get(`${other._links.self!.href}/authorisations`),
      200,
    ).authorisationIds;
    const unknown = assertErrorBody(
      await get(`${created._links.self!.href}/authorisations/${otherId}`),
      404,
      'RESOURCE_UNKNOWN',
    );
    assert.equal(unknown.tppMessages?.[0]?.path, 'path:authorisationId');
    assertErrorBody(
      await t.signed({ method: 'GET', url: `${created._links.self!.href}/authorisations`, as: t.fixtures.otherTpp }),
      404,
      'RESOURCE_UNKNOWN',
    );
  });

  it(`starts at most ${MAX_AUTHORISATIONS_PER_RESOURCE} authorisations of one payment, then answers 409 REFERENCE_STATUS_INVALID`, async () => {
    const created = await olaPayment();
    const list = `${created._links.self!.href}/authorisations`;
    for (let i = 1; i < MAX_AUTHORISATIONS_PER_RESOURCE; i++) json(await post(list), 201);
    assertErrorBody(await post(list), 409, 'REFERENCE_STATUS_INVALID');
    assert.equal(
      json<{ authorisationIds: string[] }>(await get(list), 200).authorisationIds.length,
      MAX_AUTHORISATIONS_PER_RESOURCE,
    );
  });
});

describe("a signing basket's authorisations", () => {
  it('lists the authorisation the basket was created with, starts a new one whose link signs every payment, and reads each scaStatus', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await olaPayment({ psuContext: false })).paymentId);
    const basket = json<{ basketId: string; _links: Record<string, Link> }>(
      await t.signed({
        method: 'POST',
        url: '/v1/signing-baskets',
        body: { paymentIds: ids },
        headers: createHeaders(),
      }),
      201,
    );
    const list = `${basket._links.self!.href}/authorisations`;
    const [first] = json<{ authorisationIds: string[] }>(await get(list), 200).authorisationIds;
    assert.ok(first);
    const again = json<{ authorisationId: string; scaStatus: string; _links: Record<string, Link> }>(
      await post(list),
      201,
    );
    assert.equal(again.scaStatus, 'started');
    assert.equal(again._links.scaStatus?.href, `${list}/${again.authorisationId}`);
    assert.deepEqual(json(await get(list), 200), { authorisationIds: [first, again.authorisationId] });
    await sign(again._links.scaRedirect!.href);
    assert.deepEqual(json(await get(`${list}/${again.authorisationId}`), 200), { scaStatus: 'finalised' });
    assert.deepEqual(json(await get(`${basket._links.self!.href}/status`), 200), { transactionStatus: 'ACTC' });
    assertErrorBody(await post(list), 409, 'REFERENCE_STATUS_INVALID');
    assertErrorBody(await get(`${list}/${ids[0]}`), 404, 'RESOURCE_UNKNOWN');
  });
});

describe('cancelling an authorised payment (the cancellation SCA)', () => {
  it('answers DELETE of an authorised payment with 202, its status and startAuthorisation → …/cancellation-authorisations, and cancels nothing yet', async () => {
    const created = await authorisedPayment();
    const self = created._links.self!.href;
    const accepted = json(await t.signed({ method: 'DELETE', url: self }), 202);
    assert.deepEqual(accepted, {
      transactionStatus: 'ACTC',
      _links: {
        self: { href: self, verbs: ['GET'] },
        status: { href: `${self}/status`, verbs: ['GET'] },
        startAuthorisation: { href: `${self}/cancellation-authorisations`, verbs: ['POST'] },
      },
    });
    assert.equal(await statusOf(created), 'ACTC');
  });

  it('cancels an authorised payment once the PSU approves the cancellation on the SCA page: CANC, and the authorisation is listed and finalised', async () => {
    const created = await authorisedPayment();
    const accepted = json<{ _links: Record<string, Link> }>(
      await t.signed({ method: 'DELETE', url: created._links.self!.href }),
      202,
    );
    const started = json<{ scaStatus: string; authorisationId: string; _links: Record<string, Link> }>(
      await post(accepted._links.startAuthorisation!.href),
      201,
    );
    assert.equal(started.scaStatus, 'started');
    const psu = new ScriptedPsu(t.app);
    const login = await psu.open(started._links.scaRedirect!.href);
    assert.match(login.body, /asks you to approve the cancellation of a payment you approved earlier/);
    const confirm = await psu.logIn(OLA, '123456');
    assert.match(confirm.body, /Check and approve the cancellation/);
    assert.match(confirm.body, /Svenska Leverantör AB/, 'the payment cancelled is shown');
    assert.match(confirm.body, /id="approve"/);
    await psu.approve();
    assert.equal(psu.last?.statusCode, 303);
    assert.equal(psu.redirect()!.searchParams.get('psu-id'), PSU_ID);
    assert.equal(psu.redirect()!.searchParams.get('message'), null);
    assert.equal(await statusOf(created), 'CANC');
    const list = `${created._links.self!.href}/cancellation-authorisations`;
    assert.deepEqual(json(await get(list), 200), { authorisationIds: [started.authorisationId] });
    assert.deepEqual(json(await get(`${list}/${started.authorisationId}`), 200), { scaStatus: 'finalised' });
    assertErrorBody(await t.signed({ method: 'DELETE', url: created._links.self!.href }), 405, 'CANCELLATION_INVALID');
  });

  it('leaves the payment as it was when the PSU declines the cancellation: ACTC, message=declined, the authorisation failed', async () => {
    const created = await authorisedPayment();
    const list = `${created._links.self!.href}/cancellation-authorisations`;
    const started = json<{ authorisationId: string; _links: Record<string, Link> }>(await post(list), 201);
    const psu = await sign(started._links.scaRedirect!.href, false);
    assert.equal(psu.redirect()!.searchParams.get('message'), 'declined');
    assert.equal(await statusOf(created), 'ACTC');
    assert.deepEqual(json(await get(`${list}/${started.authorisationId}`), 200), { scaStatus: 'failed' });
  });

  it('cancels an authorised bulk payment through the same flow', async () => {
    const created = await authorisedPayment({ bulk: true });
    const accepted = json<{ _links: Record<string, Link> }>(
      await t.signed({ method: 'DELETE', url: created._links.self!.href }),
      202,
    );
    const started = json<{ _links: Record<string, Link> }>(await post(accepted._links.startAuthorisation!.href), 201);
    await sign(started._links.scaRedirect!.href);
    assert.equal(await statusOf(created), 'CANC');
  });

  it('says it is a cancellation in Norwegian Bokmål too', async () => {
    const created = await authorisedPayment();
    const started = json<{ _links: Record<string, Link> }>(
      await post(`${created._links.self!.href}/cancellation-authorisations`),
      201,
    );
    const psu = new ScriptedPsu(t.app, 'nb');
    assert.match((await psu.open(started._links.scaRedirect!.href)).body, /ber deg godkjenne kanselleringen/);
    assert.match((await psu.logIn(OLA, '123456')).body, /Kontroller og godkjenn kanselleringen/);
    await psu.approve();
    assert.equal(await statusOf(created), 'CANC');
  });

  it('tells the PSU and the TPP (message=cancellation-too-late) when the batch run executed the payment while the PSU was on the page', async () => {
    const created = await authorisedPayment();
    const started = json<{ _links: Record<string, Link> }>(
      await post(`${created._links.self!.href}/cancellation-authorisations`),
      201,
    );
    const psu = new ScriptedPsu(t.app);
    await psu.open(started._links.scaRedirect!.href);
    await psu.logIn(OLA, '123456');
    await t.runner.runNow(TPP_ID);
    const executed = await statusOf(created);
    assert.notEqual(executed, 'ACTC', 'the batch run took the payment');
    const page = await psu.approve();
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /The payment could not be cancelled/);
    assert.match(page.body, /message=cancellation-too-late/);
    assert.equal(await statusOf(created), executed);
  });

  it('refuses a cancellation authorisation for a payment not yet authorised (409 REFERENCE_STATUS_INVALID: DELETE cancels it) and for one cancelled (405 CANCELLATION_INVALID)', async () => {
    const waiting = await olaPayment();
    const refused = assertErrorBody(
      await post(`${waiting._links.self!.href}/cancellation-authorisations`),
      409,
      'REFERENCE_STATUS_INVALID',
    );
    assert.match(refused.message ?? '', /DELETE cancels it without an SCA/);
    assert.equal((await t.signed({ method: 'DELETE', url: waiting._links.self!.href })).statusCode, 204);
    assertErrorBody(
      await post(`${waiting._links.self!.href}/cancellation-authorisations`),
      405,
      'CANCELLATION_INVALID',
    );
    assert.deepEqual(json(await get(`${waiting._links.self!.href}/cancellation-authorisations`), 200), {
      authorisationIds: [],
    });
  });
});

describe("a standing order's authorisations and its cancellation", () => {
  it('lists and reads the authorisations of a standing order, and ends an authorised one through the cancellation SCA: 202, approval, CANC', async () => {
    const startDate = new Date(clock.current.getTime() + 10 * 86_400_000).toISOString().slice(0, 10);
    const body = periodicBody({ startDate, debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } });
    const created = json<Created>(
      await t.signed({ method: 'POST', url: PERIODIC_PATH, body, headers: createHeaders() }),
      201,
    );
    const list = `${created._links.self!.href}/authorisations`;
    const [first] = json<{ authorisationIds: string[] }>(await get(list), 200).authorisationIds;
    assert.ok(first, 'the authorisation the create started is listed');
    await sign(created._links.scaRedirect!.href);
    assert.deepEqual(json(await get(`${list}/${first}`), 200), { scaStatus: 'finalised' });
    const running = await statusOf(created);
    const accepted = json<{ transactionStatus: string; _links: Record<string, Link> }>(
      await t.signed({ method: 'DELETE', url: created._links.self!.href }),
      202,
    );
    assert.equal(accepted.transactionStatus, running);
    assert.equal(accepted._links.startAuthorisation?.href, `${created._links.self!.href}/cancellation-authorisations`);
    const started = json<{ authorisationId: string; _links: Record<string, Link> }>(
      await post(accepted._links.startAuthorisation!.href),
      201,
    );
    await sign(started._links.scaRedirect!.href);
    assert.equal(await statusOf(created), 'CANC');
    assert.deepEqual(json(await get(accepted._links.startAuthorisation!.href), 200), {
      authorisationIds: [started.authorisationId],
    });
  });
});
