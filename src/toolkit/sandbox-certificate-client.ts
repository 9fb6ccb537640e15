import { createPublicKey } from 'node:crypto';
import type { PspRole } from '../domain/psp-role.js';
import type { CertificateAndKey } from './certificate-factory.js';
import { causeOf } from './cause.js';
import { type HttpExchangeAnswer, exchange } from './http-exchange.js';

export interface SandboxCertificateOptions {
  /** The sandbox's address, such as http://127.0.0.1:8080 (or its /api-sandbox address). */
  server: string;
  organisationId: string;
  name: string;
  roles: readonly PspRole[];
  validDays?: number;
  /**
   * The TPP's key (PKCS#8 PEM) to have certified instead of a new one: only its public half is sent.
   * A sandbox bank belongs to the key that made it, so a certificate renewed over it keeps the bank.
   */
  keyPem?: string;
}

/**
 * A TPP certificate and its key from a sandbox over HTTP (POST /v1/sandbox/certificates): for a
 * sandbox that runs elsewhere, whose CA files are not at hand. Throws with the sandbox's own words
 * when it refuses.
 */
export async function requestSandboxCertificate(
  options: SandboxCertificateOptions,
): Promise<CertificateAndKey & { keyId: string }> {
  const url = new URL('v1/sandbox/certificates', options.server.endsWith('/') ? options.server : `${options.server}/`);
  const body = {
    organizationIdentifier: options.organisationId,
    name: options.name,
    roles: options.roles,
    ...(options.validDays === undefined ? {} : { validDays: options.validDays }),
    ...(options.keyPem === undefined
      ? {}
      : { publicKey: createPublicKey(options.keyPem).export({ type: 'spki', format: 'pem' }).toString() }),
  };
  let response: HttpExchangeAnswer;
  try {
    response = await exchange({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(`cannot reach the sandbox at ${url.origin}: ${causeOf(error)}`);
  }
  const text = response.text;
  let answer:
    | { certificate?: string; privateKey?: string; keyId?: string; message?: string; tppMessages?: { text?: string }[] }
    | undefined;
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    answer = undefined;
  }
  const keyPem = options.keyPem ?? answer?.privateKey;
  if (response.status !== 201 || typeof answer?.certificate !== 'string' || typeof keyPem !== 'string') {
    const why =
      answer?.tppMessages
        ?.map((m) => m.text)
        .filter((t) => t !== undefined)
        .join('; ') ||
      answer?.message ||
      text.slice(0, 200);
    throw new Error(`the sandbox at ${url.origin} answered ${response.status}: ${why}`);
  }
  return { certPem: answer.certificate, keyPem, keyId: answer.keyId ?? '' };
}
