import { X509Certificate, createPrivateKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeCertificateAuthority } from './certificate-authority.js';
import { type ParsedCertificate, parseCertificate, readPemCertificates } from './tpp-certificate.js';
import { TrustStoreError, readCertificate } from './trust-store.js';

import { SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE } from './sandbox-ca-files.js';

export { SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE };

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
  const existing = readCa(certPath);
  if (existing !== undefined) return existing;
  const ca = makeCertificateAuthority({
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

/** Where the sandbox CA's certificate and key are: files every instance shares, or the pair made in the data folder. */
export interface SandboxCaFiles {
  certFile: string;
  keyFile: string;
}

/** The pair ensureSandboxCa makes in a data folder. */
export function sandboxCaFilesIn(dataDir: string): SandboxCaFiles {
  return { certFile: join(dataDir, SANDBOX_CA_CERT_FILE), keyFile: join(dataDir, SANDBOX_CA_KEY_FILE) };
}

/**
 * The sandbox CA the operator gives every instance (SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE), so
 * that each trusts the certificates any of them issued: never made here, since instances making their
 * own would each have another. A certificate that cannot be read or is weak, a key that cannot be read
 * or is not the certificate's, stops the start (TrustStoreError), rather than every certificate
 * request failing later.
 */
export async function readSharedSandboxCa({ certFile, keyFile }: SandboxCaFiles): Promise<ParsedCertificate> {
  const fix = 'give SANDBOX_CA_CERT_FILE and SANDBOX_CA_KEY_FILE the sandbox CA every instance shares';
  const [certPem, keyPem] = await Promise.all(
    [certFile, keyFile].map((file) =>
      readFile(file, 'utf8').catch((error: unknown) => {
        throw new TrustStoreError(
          `the shared sandbox CA file '${file}' cannot be read (${(error as Error).message}); ${fix}`,
        );
      }),
    ),
  );
  const der = readPemCertificates(certPem!)[0];
  if (der === undefined)
    throw new TrustStoreError(`the shared sandbox CA file '${certFile}' holds no certificate; ${fix}`);
  const ca = readCertificate(der, `the shared sandbox CA file '${certFile}'`, fix);
  let pairs: boolean;
  try {
    pairs = new X509Certificate(certPem!).checkPrivateKey(createPrivateKey(keyPem!));
  } catch (error) {
    throw new TrustStoreError(
      `the shared sandbox CA key '${keyFile}' cannot be read (${(error as Error).message}); ${fix}`,
    );
  }
  if (!pairs)
    throw new TrustStoreError(`the shared sandbox CA key '${keyFile}' is not the key of '${certFile}'; ${fix}`);
  return ca;
}

/** The sandbox CA's certificate and key as PEM text, to issue TPP certificates from. */
export async function readSandboxCaFiles({
  certFile,
  keyFile,
}: SandboxCaFiles): Promise<{ certPem: string; keyPem: string }> {
  const [certPem, keyPem] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  return { certPem, keyPem };
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
