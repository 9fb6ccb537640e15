import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { ScriptedPsu } from './scripted-psu.js';
import type { TestApp } from './test-app.js';

/** Account information in tests: a consent given on the page as a PSU gives it, and reads in its session. */
export const CONSENT_PATH = '/v1/bank-offered-consents';
export const REDIRECT = 'https://tpp.example/callback?state=ais';

export interface ConsentSession {
  psuId: string;
  tppSessionId: string;
}

/** POST /v1/bank-offered-consents signed as the TPP (the test TPP unless `as`). */
export function askConsent(
  t: TestApp,
  options: { headers?: Record<string, string>; as?: CertificateAndKey; body?: unknown } = {},
): Promise<LightMyRequestResponse> {
  return t.signed({
    method: 'POST',
    url: CONSENT_PATH,
    headers: { 'TPP-Redirect-URI': REDIRECT, ...options.headers },
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.as === undefined ? {} : { as: options.as }),
  });
}

/**
 * The PSU follows an scaRedirect, logs in and shares the accounts `choose` picks from those offered
 * (all of them by default); returns the session the browser came back with.
 */
export async function completeConsent(
  t: TestApp,
  link: string,
  customerNumber: string,
  choose: (offered: string[]) => string[] = (all) => all,
): Promise<ConsentSession & { psu: ScriptedPsu }> {
  const psu = new ScriptedPsu(t.app);
  await psu.open(link);
  await psu.logIn(customerNumber, '123456');
  await psu.share(choose(psu.offered().all));
  const back = psu.redirect();
  const psuId = back?.searchParams.get('psu-id');
  const tppSessionId = back?.searchParams.get('tpp-session-id');
  if (psuId == null || tppSessionId == null)
    throw new Error(`the consent did not return to the TPP: ${psu.last?.statusCode} ${psu.last?.body}`);
  return { psuId, tppSessionId, psu };
}

/** A consent of a customer (Ola by default) in a new session, sharing what `choose` picks. */
export async function giveConsent(
  t: TestApp,
  options: {
    customerNumber?: string;
    headers?: Record<string, string>;
    choose?: (offered: string[]) => string[];
    as?: CertificateAndKey;
  } = {},
): Promise<ConsentSession> {
  const asked = await askConsent(t, {
    headers: { 'TPP-Session-ID': `session-${randomUUID()}`, ...options.headers },
    ...(options.as === undefined ? {} : { as: options.as }),
  });
  if (asked.statusCode !== 201) throw new Error(`consent: ${asked.statusCode} ${asked.body}`);
  const link = (asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href;
  const { psuId, tppSessionId } = await completeConsent(
    t,
    link,
    options.customerNumber ?? '13039319955',
    options.choose,
  );
  return { psuId, tppSessionId };
}

/** A signed read in a consent session; PSU-IP-Address (the PSU asked for it) unless `present` is false. */
export function readAis(
  t: TestApp,
  url: string,
  session: ConsentSession | undefined,
  options: { present?: boolean; headers?: Record<string, string>; as?: CertificateAndKey } = {},
): Promise<LightMyRequestResponse> {
  return t.signed({
    method: 'GET',
    url,
    headers: {
      ...(session === undefined ? {} : { 'PSU-ID': session.psuId, 'TPP-Session-ID': session.tppSessionId }),
      ...(options.present === false ? {} : { 'PSU-IP-Address': '192.0.2.10' }),
      // Where a 401 challenge's SCA brings the PSU back to, as a TPP sends it on every request.
      'TPP-Redirect-URI': REDIRECT,
      ...options.headers,
    },
    ...(options.as === undefined ? {} : { as: options.as }),
  });
}
