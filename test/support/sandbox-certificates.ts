import assert from 'node:assert/strict';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import type { TestApp } from './test-app.js';

/**
 * A certificate from the sandbox (POST /v1/sandbox/certificates, unsigned), as a TPP gets one over
 * HTTP: with a key of the sandbox's making, or over the public key given (then the caller holds its
 * private key, `keyPem`).
 */
export async function issueSandboxCertificate(
  t: TestApp,
  organizationIdentifier: string,
  options: { name?: string; roles?: string[]; key?: { keyPem: string; publicKey: string } } = {},
): Promise<CertificateAndKey> {
  const issued = await t.app.inject({
    method: 'POST',
    url: '/v1/sandbox/certificates',
    payload: {
      organizationIdentifier,
      name: options.name ?? 'Test TPP',
      roles: options.roles ?? ['PSP_PI', 'PSP_AI'],
      ...(options.key === undefined ? {} : { publicKey: options.key.publicKey }),
    },
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(issued.statusCode, 201, issued.body);
  const json = issued.json() as { certificate: string; privateKey?: string };
  return { certPem: json.certificate, keyPem: options.key?.keyPem ?? json.privateKey! };
}
