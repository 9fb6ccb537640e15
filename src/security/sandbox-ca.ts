import { readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type ParsedCertificate, parseCertificate, readPemCertificates } from './tpp-certificate.js';

export const SANDBOX_CA_CERT_FILE = 'sandbox-ca.cert.pem';
export const SANDBOX_CA_KEY_FILE = 'sandbox-ca.key.pem';

/**
 * The sandbox's own CA, made on the first start in the data folder: TPP developers issue
 * certificates from it with the toolkit (`npm run tpp -- cert`) and the sandbox trusts them.
 * Production never has one.
 */
export async function ensureSandboxCa(dataDir: string): Promise<ParsedCertificate> {
  const certPath = join(dataDir, SANDBOX_CA_CERT_FILE);
  const existing = await readFile(certPath, 'utf8').catch(() => undefined);
  if (existing !== undefined) {
    const [der] = readPemCertificates(existing);
    if (der !== undefined) return parseCertificate(der);
  }
  // The certificate library is loaded only here, on the first start, to keep every other start fast.
  const { createCertificateAuthority } = await import('../toolkit/certificate-factory.js');
  const ca = await createCertificateAuthority({ commonName: 'Sandbox PSD2 Test CA', organisation: 'Sandbox Bank ASA', country: 'NO' });
  await mkdir(dataDir, { recursive: true });
  const keyPath = join(dataDir, SANDBOX_CA_KEY_FILE);
  await writeFile(`${keyPath}.tmp`, ca.keyPem, { mode: 0o600 });
  await rename(`${keyPath}.tmp`, keyPath);
  await writeFile(`${certPath}.tmp`, ca.certPem);
  await rename(`${certPath}.tmp`, certPath);
  return parseCertificate(readPemCertificates(ca.certPem)[0]!);
}
