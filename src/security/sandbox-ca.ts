import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ParsedCertificate, parseCertificate, readPemCertificates } from './tpp-certificate.js';
import { readCertificate } from './trust-store.js';

export const SANDBOX_CA_CERT_FILE = 'sandbox-ca.cert.pem';
export const SANDBOX_CA_KEY_FILE = 'sandbox-ca.key.pem';

/** How long a start waits for another process that is making the CA in the same folder. */
const OTHER_MAKER_WAIT_MS = 5_000;
const POLL_MS = 20;

/**
 * The sandbox's own CA, made on the first start in the data folder: TPP developers issue
 * certificates from it with the toolkit (`npm run tpp -- cert`) and the sandbox trusts them.
 * Production never has one.
 *
 * Two processes may start on one empty folder at once. Each makes a CA, but only one publishes it:
 * the key is put in place with link(), which fails when the file exists, and the certificate after
 * it, so the files are always a pair. The other process reads the winner's certificate. A key left
 * without a certificate (a start killed between the two) is removed after the wait and the CA made again.
 */
export async function ensureSandboxCa(dataDir: string): Promise<ParsedCertificate> {
  const certPath = join(dataDir, SANDBOX_CA_CERT_FILE);
  const keyPath = join(dataDir, SANDBOX_CA_KEY_FILE);
  const existing = await readCa(certPath);
  if (existing !== undefined) return existing;
  // The certificate library is loaded only here, on the first start, to keep every other start fast.
  const { createCertificateAuthority } = await import('../toolkit/certificate-factory.js');
  const ca = await createCertificateAuthority({ commonName: 'Sandbox PSD2 Test CA', organisation: 'Sandbox Bank ASA', country: 'NO' });
  await mkdir(dataDir, { recursive: true });
  const suffix = `${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const ours = await publish(`${keyPath}.${suffix}`, keyPath, ca.keyPem, 0o600);
  if (ours && await publish(`${certPath}.${suffix}`, certPath, ca.certPem, 0o644)) {
    return parseCertificate(readPemCertificates(ca.certPem)[0]!);
  }
  for (let waited = 0; waited < OTHER_MAKER_WAIT_MS; waited += POLL_MS) {
    const theirs = await readCa(certPath);
    if (theirs !== undefined) return theirs;
    await sleep(POLL_MS);
  }
  await unlink(keyPath).catch(() => undefined);
  return ensureSandboxCa(dataDir);
}

/** The sandbox CA's certificate and key as PEM text, to issue TPP certificates from (ensureSandboxCa made them). */
export async function readSandboxCaFiles(dataDir: string): Promise<{ certPem: string; keyPem: string }> {
  const [certPem, keyPem] = await Promise.all([readFile(join(dataDir, SANDBOX_CA_CERT_FILE), 'utf8'), readFile(join(dataDir, SANDBOX_CA_KEY_FILE), 'utf8')]);
  return { certPem, keyPem };
}

async function readCa(certPath: string): Promise<ParsedCertificate | undefined> {
  const text = await readFile(certPath, 'utf8').catch(() => undefined);
  const der = text === undefined ? undefined : readPemCertificates(text)[0];
  // A CA file someone replaced with a weak one is refused (TrustStoreError), as a configured CA would be.
  return der === undefined ? undefined : readCertificate(der, `the sandbox CA file '${certPath}'`, `remove it and ${SANDBOX_CA_KEY_FILE} beside it, and the next start makes a new sandbox CA`);
}

/** Writes `text` to a file of its own, then links it into place; false when the place is taken. */
async function publish(temporary: string, path: string, text: string, mode: number): Promise<boolean> {
  await writeFile(temporary, text, { mode });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary);
  }
}
