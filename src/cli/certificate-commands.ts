import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { PSP_ROLE_NAMES, type PspRole } from '../domain/psp-role.js';
import { SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE } from '../security/sandbox-ca-files.js';
// Small, and what it needs (node:http, node:crypto) tpp call loads anyway: a chunk of its own would cost more.
import { requestSandboxCertificate } from '../toolkit/sandbox-certificate-client.js';
import { positiveInteger, readText, roleList } from './cli-inputs.js';

/**
 * Where the server finds its sandbox CA: the setting naming a shared CA's file (README, "Scale-out"),
 * else the file it makes in DATA_DIR. Given as the option's default rather than read as its value, so
 * that a shell with the server's settings can still ask a sandbox over HTTP (--server conflicts only
 * with CA files given on the command line).
 */
function sandboxCaFile(setting: 'SANDBOX_CA_CERT_FILE' | 'SANDBOX_CA_KEY_FILE', inDataDir: string): string {
  const named = process.env[setting];
  return named !== undefined && named !== '' ? named : join(process.env.DATA_DIR ?? './data', inDataDir);
}

/** `tpp ca` and `tpp cert`: a CA of one's own, and a TPP certificate with PSD2 roles from the sandbox or a CA's files. */
export function addCertificateCommands(program: Command): void {
  addCaCommand(program);
  addCertCommand(program);
}

/** `tpp ca`: a CA of one's own, for set-ups other than the sandbox's. */
function addCaCommand(program: Command): void {
  program
    .command('ca')
    .description('create a certificate authority (the sandbox makes its own on first start; this is for other set-ups)')
    .option('--out-dir <dir>', 'folder for ca.cert.pem and ca.key.pem', './ca')
    .option('--name <commonName>', 'common name of the CA', 'Test PSD2 CA')
    .option('--valid-days <days>', 'validity in days', positiveInteger, 3650)
    .action(async (options: { outDir: string; name: string; validDays: number }) => {
      // Loaded when used: the certificate library is most of what the toolkit would load at every start.
      const { createCertificateAuthority } = await import('../toolkit/certificate-factory.js');
      const ca = await createCertificateAuthority({ commonName: options.name, validDays: options.validDays });
      await mkdir(options.outDir, { recursive: true });
      await writeFile(join(options.outDir, 'ca.cert.pem'), ca.certPem);
      await writeFile(join(options.outDir, 'ca.key.pem'), ca.keyPem, { mode: 0o600 });
      process.stdout.write(`wrote ${join(options.outDir, 'ca.cert.pem')} and ${join(options.outDir, 'ca.key.pem')}\n`);
    });
}

/** `tpp cert`: a TPP certificate with PSD2 roles, from a sandbox over HTTP or from a CA's files. */
function addCertCommand(program: Command): void {
  program
    .command('cert')
    .description(
      "issue a TPP signing certificate with PSD2 roles: from a sandbox over HTTP (--server), or from a CA's files (by default the sandbox CA in ./data)",
    )
    .option('--roles <roles>', `comma-separated PSD2 roles (${PSP_ROLE_NAMES.join(', ')})`, roleList, [
      'PSP_PI',
      'PSP_AI',
    ] as PspRole[])
    .option('--org-id <organisationIdentifier>', 'the TPP identity, e.g. PSDNO-FSA-933012867', 'PSDNO-FSA-000000000')
    .option('--name <name>', 'TPP name (subject CN and O)', 'Sandbox TPP')
    .addOption(
      new Option(
        '--server <url>',
        "a running sandbox's address, e.g. http://127.0.0.1:8080: it issues the certificate (POST /v1/sandbox/certificates)",
      )
        .env('TPP_BASE_URL')
        .conflicts(['caCert', 'caKey']),
    )
    // The server's own settings name the sandbox CA it uses (a shared one, README "Scale-out"), so the
    // toolkit run beside it issues from the same CA without being told twice.
    .addOption(
      new Option(
        '--ca-cert <file>',
        'issuing CA certificate (PEM); by default SANDBOX_CA_CERT_FILE, else in DATA_DIR',
      ).default(sandboxCaFile('SANDBOX_CA_CERT_FILE', SANDBOX_CA_CERT_FILE)),
    )
    .addOption(
      new Option(
        '--ca-key <file>',
        'issuing CA private key (PEM); by default SANDBOX_CA_KEY_FILE, else in DATA_DIR',
      ).default(sandboxCaFile('SANDBOX_CA_KEY_FILE', SANDBOX_CA_KEY_FILE)),
    )
    .option('--out-dir <dir>', 'folder for tpp.cert.pem and tpp.key.pem', './tpp')
    .option('--valid-days <days>', 'validity in days (a sandbox over HTTP gives at most 365)', positiveInteger, 365)
    .action(issueCertificate);
}

interface CertOptions {
  roles: PspRole[];
  orgId: string;
  name: string;
  server?: string;
  caCert: string;
  caKey: string;
  outDir: string;
  validDays: number;
}

/** Issues the certificate `tpp cert` asks for and writes it, with its key, to --out-dir. */
async function issueCertificate(options: CertOptions): Promise<void> {
  // A sandbox bank belongs to the key that made it: a certificate asked for again is issued over
  // the key already in --out-dir, so the TPP keeps its bank (docs/security.md, Tenancy).
  const keyPem = await readFile(join(options.outDir, 'tpp.key.pem'), 'utf8').catch(() => undefined);
  const request = {
    roles: options.roles,
    organisationId: options.orgId,
    name: options.name,
    validDays: options.validDays,
    ...(keyPem === undefined ? {} : { keyPem }),
  };
  const tpp =
    options.server !== undefined
      ? await requestSandboxCertificate({ server: options.server, ...request })
      : await (
          await import('../toolkit/certificate-factory.js')
        ).issueTppCertificate({
          issuer: {
            certPem: await readText(options.caCert, 'CA certificate'),
            keyPem: await readText(options.caKey, 'CA key'),
          },
          ...request,
        });
  await mkdir(options.outDir, { recursive: true });
  await writeFile(join(options.outDir, 'tpp.cert.pem'), tpp.certPem);
  await writeFile(join(options.outDir, 'tpp.key.pem'), tpp.keyPem, { mode: 0o600 });
  process.stdout.write(
    keyPem === undefined
      ? `wrote ${join(options.outDir, 'tpp.cert.pem')} and ${join(options.outDir, 'tpp.key.pem')} (${options.orgId}, roles ${options.roles.join(', ')})\n`
      : `wrote ${join(options.outDir, 'tpp.cert.pem')} over the key in ${join(options.outDir, 'tpp.key.pem')} (${options.orgId}, roles ${options.roles.join(', ')})\n`,
  );
}
