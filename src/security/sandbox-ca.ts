import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { AuthorityOptions, CertificateAndKey } from './certificate-issuer.js';
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
  // Read at once, so that on a first start the worker begins before the caller goes on with its own work.
  const existing = readCa(certPath);
  if (existing !== undefined) return existing;
  const ca = await makeInWorker({
    commonName: 'Sandbox PSD2 Test CA',
    organisation: 'Sandbox Bank ASA',
    country: 'NO',
  });
  await mkdir(dataDir, { recursive: true });
  const suffix = `${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const ours = await publish(`${keyPath}.${suffix}`, keyPath, ca.keyPem, 0o600);
  if (ours && (await publish(`${certPath}.${suffix}`, certPath, ca.certPem, 0o644))) {
    return parseCertificate(readPemCertificates(ca.certPem)[0]!);
  }
  for (let waited = 0; waited < OTHER_MAKER_WAIT_MS; waited += POLL_MS) {
    const theirs = readCa(certPath);
    if (theirs !== undefined) return theirs;
    await sleep(POLL_MS);
  }
  await unlink(keyPath).catch(() => undefined);
  return ensureSandboxCa(dataDir);
}

/** The sandbox CA's certificate and key as PEM text, to issue TPP certificates from (ensureSandboxCa made them). */
export async function readSandboxCaFiles(dataDir: string): Promise<{ certPem: string; keyPem: string }> {
  const [certPem, keyPem] = await Promise.all([
    readFile(join(dataDir, SANDBOX_CA_CERT_FILE), 'utf8'),
    readFile(join(dataDir, SANDBOX_CA_KEY_FILE), 'utf8'),
  ]);
  return { certPem, keyPem };
}

/**
 * The CA is made in a worker thread (sandbox-ca-worker.ts), the certificate library loaded there
 * only: the main thread goes on starting meanwhile. The worker's file is beside this module's, or
 * beside the server's bundle (scripts/bundle.ts), which runs it from its code cache as sandbox-ca-worker.mjs.
 */
function makeInWorker(options: AuthorityOptions): Promise<CertificateAndKey> {
  const file = new URL(
    import.meta.url.endsWith('.cjs') ? './sandbox-ca-worker.mjs' : './sandbox-ca-worker.js',
    import.meta.url,
  );
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: options });
    worker.once('message', resolve);
    worker.once('error', reject);
    // After the message this changes nothing.
    worker.once('exit', (code) =>
      reject(new Error(`the worker making the sandbox CA ended (exit code ${code}) without one`)),
    );
  });
}

function readCa(certPath: string): ParsedCertificate | undefined {
  let text: string | undefined;
  try {
    text = readFileSync(certPath, 'utf8');
  } catch {
    text = undefined;
  }
  const der = text === undefined ? undefined : readPemCertificates(text)[0];
  // A CA file someone replaced with a weak one is refused (TrustStoreError), as a configured CA would be.
  return der === undefined
    ? undefined
    : readCertificate(
        der,
        `the sandbox CA file '${certPath}'`,
        `remove it and ${SANDBOX_CA_KEY_FILE} beside it, and the next start makes a new sandbox CA`,
      );
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
