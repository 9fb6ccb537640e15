import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OLA_ACCOUNTS, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Issue 31, 7: the SCA page's step token was not bound to the browser that opened the link. The
 * victim's `step`, posted with another page's `_csrf` cookie and token (the attacker's own, valid
 * pair), was accepted. docs/security.md says the steps after opening are bound to that browser.
 */
const OLA = '13039319955';
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

async function olaPayment() {
  const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
  const response = await createCrossBorder(t, { body });
  assert.equal(response.statusCode, 201, response.body);
  const created = response.json() as { _links: Record<string, { href: string }> };
  return {
    link: created._links.scaRedirect!.href,
    status: async () =>
      ((await t.signed({ method: 'GET', url: created._links.status!.href })).json() as { transactionStatus: string })
        .transactionStatus,
  };
}

describe("the SCA page's step token", () => {
  it("is refused from another browser, even with that browser's own valid CSRF cookie and token; the victim then goes on", async () => {
    const payment = await olaPayment();
    const victim = new ScriptedPsu(t.app);
    await victim.open(payment.link);
    await victim.logIn(OLA, '123456');
    const victimForm = victim.currentForm!;
    assert.equal(victimForm.action, '/sca/decision');

    // The attacker opens a page of its own: its browser gets a CSRF cookie and a token that match.
    const attacker = new ScriptedPsu(t.app);
    await attacker.open((await olaPayment()).link);
    const attackerCsrf = attacker.currentForm!.fields._csrf!;
    const forged = await attacker.resubmit(
      { action: victimForm.action, fields: { ...victimForm.fields, _csrf: attackerCsrf } },
      { decision: 'decline' },
    );
    assert.equal(forged.statusCode, 403, forged.body);
    assert.match(forged.body, /This form cannot be used/);
    assert.equal(await payment.status(), 'RCVD', 'the victim’s payment is untouched');

    // The step was not used up: the victim, in its own browser, approves.
    await victim.resubmit(victimForm, { decision: 'approve' });
    assert.equal(victim.redirect()?.searchParams.get('message'), null, victim.last?.body);
    assert.equal(await payment.status(), 'ACTC');
  });

  it("is refused at log-in from another browser too: the victim's link opened, the step taken elsewhere", async () => {
    const payment = await olaPayment();
    const victim = new ScriptedPsu(t.app);
    await victim.open(payment.link);
    const victimForm = victim.currentForm!;
    const attacker = new ScriptedPsu(t.app);
    await attacker.open((await olaPayment()).link);
    const forged = await attacker.resubmit(
      { action: victimForm.action, fields: { ...victimForm.fields, _csrf: attacker.currentForm!.fields._csrf! } },
      { customerNumber: OLA, code: '123456' },
    );
    assert.equal(forged.statusCode, 403, forged.body);
    await victim.resubmit(victimForm, { customerNumber: OLA, code: '123456' });
    assert.equal(victim.currentForm?.action, '/sca/decision', victim.last?.body);
  });
});
