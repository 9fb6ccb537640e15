#!/usr/bin/env node
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { PSP_ROLE_NAMES, type PspRole, isPspRole } from '../domain/psp-role.js';
import { SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE } from '../security/sandbox-ca.js';
import { createCertificateAuthority, issueTppCertificate } from '../toolkit/certificate-factory.js';
import { requestSandboxCertificate } from '../toolkit/sandbox-certificate-client.js';
import { type SignOptions, signRequest } from '../toolkit/request-signer.js';
import { approveSca } from '../toolkit/sca-approver.js';
import { sendSignedRequest } from '../toolkit/tpp-client.js';

/**
 * The TPP toolkit on the command line: make a CA, issue a TPP certificate with PSD2 roles, sign a
 * request (for curl) or send it, complete a PSU's SCA on the bank's pages. `npm run tpp -- --help`
 * lists it all. The server's address is given once, as TPP_BASE_URL or --server, and each call names
 * a path.
 */
const program = new Command('tpp')
  .description('TPP toolkit: certificates with PSD2 roles and signed requests for the payment initiation interface')
  .showHelpAfterError();

program
  .command('ca')
  .description('create a certificate authority (the sandbox makes its own on first start; this is for other set-ups)')
  .option('--out-dir <dir>', 'folder for ca.cert.pem and ca.key.pem', './ca')
  .option('--name <commonName>', 'common name of the CA', 'Test PSD2 CA')
  .option('--valid-days <days>', 'validity in days', positiveInteger, 3650)
  .action(async (options: { outDir: string; name: string; validDays: number }) => {
    const ca = await createCertificateAuthority({ commonName: options.name, validDays: options.validDays });
    await mkdir(options.outDir, { recursive: true });
    await writeFile(join(options.outDir, 'ca.cert.pem'), ca.certPem);
    await writeFile(join(options.outDir, 'ca.key.pem'), ca.keyPem, { mode: 0o600 });
    process.stdout.write(`wrote ${join(options.outDir, 'ca.cert.pem')} and ${join(options.outDir, 'ca.key.pem')}\n`);
  });

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
  .action(
    async (options: {
      roles: PspRole[];
      orgId: string;
      name: string;
      server?: string;
      caCert: string;
      caKey: string;
      outDir: string;
      validDays: number;
    }) => {
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
          : await issueTppCertificate({
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
    },
  );

function requestCommand(name: string, description: string) {
  return program
    .command(name)
    .description(description)
    .argument('<method>', 'HTTP method, e.g. POST')
    .argument('<url>', 'a path such as /v1/payments/sepa-credit-transfers (read against --server), or a full address')
    .addOption(serverOption())
    .option('-d, --data <json>', 'request body, or @file to read it from a file (sent byte for byte)')
    .option('-H, --header <header...>', 'extra header "Name: value" (repeatable)')
    .option('--cert <file>', 'TPP certificate (PEM)', './tpp/tpp.cert.pem')
    .option('--key <file>', 'TPP private key (PEM)', './tpp/tpp.key.pem')
    .addOption(
      new Option('--digest <algorithm>', 'Digest algorithm').choices(['SHA-256', 'SHA-512']).default('SHA-256'),
    )
    .addOption(
      new Option('--cert-encoding <encoding>', 'TPP-Signature-Certificate as base64 of the DER or of the PEM text')
        .choices(['der', 'pem'])
        .default('der'),
    )
    .option('--rfc2047', 'wrap the Signature header as an RFC 2047 encoded word');
}

/** The server's address, given once: calls then name only their path. */
function serverOption(): Option {
  return new Option('--server <url>', "the server's address, e.g. http://127.0.0.1:8080").env('TPP_BASE_URL');
}

/** A full address as given, or a path appended to the server's address (which may have a path of its own). */
function addressOf(url: string, server: string | undefined): string {
  if (/^https?:\/\//i.test(url)) return url;
  if (server === undefined)
    throw new InvalidArgumentError(
      `'${url}' is a path: give the server's address once (TPP_BASE_URL=http://127.0.0.1:8080 or --server), or a full address`,
    );
  return `${server.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

interface RequestOptions {
  server?: string;
  data?: string;
  header?: string[];
  cert: string;
  key: string;
  digest: 'SHA-256' | 'SHA-512';
  certEncoding: 'der' | 'pem';
  rfc2047?: boolean;
}

async function signOptions(
  method: string,
  url: string,
  options: RequestOptions,
): Promise<SignOptions & { url: string }> {
  url = addressOf(url, options.server);
  const body =
    options.data === undefined
      ? undefined
      : options.data.startsWith('@')
        ? await readText(options.data.slice(1), 'body')
        : options.data;
  const headers: Record<string, string> = {};
  for (const header of options.header ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new InvalidArgumentError(`header '${header}' is not of the form "Name: value"`);
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  return {
    method: method.toUpperCase(),
    url,
    body,
    headers,
    credentials: {
      certPem: await readText(options.cert, 'TPP certificate'),
      keyPem: await readText(options.key, 'TPP key'),
    },
    digestAlgorithm: options.digest,
    digest: body !== undefined || ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase()),
    certificateEncoding: options.certEncoding,
    rfc2047: options.rfc2047 === true,
  };
}

requestCommand('sign', 'print the headers of a signed request, or a curl command that sends it')
  .addOption(new Option('--format <format>', 'output').choices(['headers', 'curl', 'json']).default('headers'))
  .action(async (method: string, url: string, options: RequestOptions & { format: 'headers' | 'curl' | 'json' }) => {
    const sign = await signOptions(method, url, options);
    const headers = signRequest(sign);
    if (sign.body !== undefined) headers['content-type'] ??= 'application/json';
    if (options.format === 'json') process.stdout.write(`${JSON.stringify(headers, null, 2)}\n`);
    else if (options.format === 'headers')
      process.stdout.write(
        Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\n`)
          .join(''),
      );
    else {
      const parts = [
        `curl -sS -X ${sign.method} ${shellQuote(sign.url)}`,
        // curl leaves out a header written "Name:" with no value; "Name;" sends it empty (x-accept-fix).
        ...Object.entries(headers).map(([k, v]) => `-H ${shellQuote(v === '' ? `${k};` : `${k}: ${v}`)}`),
      ];
      if (sign.body !== undefined)
        parts.push(
          `--data-binary ${shellQuote(typeof sign.body === 'string' ? sign.body : Buffer.from(sign.body).toString())}`,
        );
      process.stdout.write(`${parts.join(' \\\n  ')}\n`);
    }
  });

requestCommand('call', 'send a signed request and print the status and the answer').action(
  async (method: string, url: string, options: RequestOptions) => {
    const response = await sendSignedRequest(await signOptions(method, url, options));
    process.stdout.write(
      `HTTP ${response.status}\n${typeof response.body === 'string' ? response.body : JSON.stringify(response.body, null, 2)}\n`,
    );
    if (response.status >= 400) process.exitCode = 1;
  },
);

program
  .command('approve')
  .description(
    "complete a payment's, basket's, cancellation's or consent's SCA as the PSU, on the bank's own pages (no browser needed)",
  )
  .argument('<scaRedirect>', 'the _links.scaRedirect.href of the answer (a path is read against --server)')
  .option('--customer <number>', "the PSU's customer number, e.g. 13039319955 (needed unless --cancel)")
  .option('--code <code>', 'the one-time code (the sandbox takes 123456; 000000 always fails)', '123456')
  .addOption(
    new Option(
      '--accounts <accounts>',
      "a consent's accounts to share, comma-separated account numbers (BBAN or IBAN) or card numbers; by default those the page ticks",
    ).argParser((value: string) =>
      value
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a !== ''),
    ),
  )
  .addOption(new Option('--decline', 'decline instead of approving').conflicts('accounts'))
  .addOption(
    new Option('--cancel', 'press Cancel on the log-in page instead of logging in').conflicts(['accounts', 'decline']),
  )
  .addOption(serverOption())
  .action(
    async (
      link: string,
      options: {
        customer?: string;
        code: string;
        accounts?: string[];
        decline?: boolean;
        cancel?: boolean;
        server?: string;
      },
    ) => {
      if (options.customer === undefined && options.cancel !== true)
        program.error("error: required option '--customer <number>' not specified (only --cancel needs none)");
      const outcome = await approveSca({
        link,
        server: options.server,
        customerNumber: options.customer ?? '',
        code: options.code,
        decline: options.decline === true,
        cancel: options.cancel === true,
        accounts: options.accounts,
      });
      const lines = [
        outcome.decision,
        ...(outcome.location === undefined ? [] : [`location: ${outcome.location}`]),
        ...(outcome.psuId === undefined ? [] : [`psu-id: ${outcome.psuId}`]),
        ...(outcome.tppSessionId === undefined ? [] : [`tpp-session-id: ${outcome.tppSessionId}`]),
        ...(outcome.outcome === undefined ? [] : [`page: ${outcome.outcome}`]),
        ...outcome.shared.map((account) => `shared: ${account}`),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    },
  );

program
  .command('console')
  .description(
    "print a link to your sandbox bank's console (customers, payments, consents, the clock) for a browser: it opens once, within 5 minutes",
  )
  .addOption(serverOption())
  .option('--cert <file>', 'TPP certificate (PEM)', './tpp/tpp.cert.pem')
  .option('--key <file>', 'TPP private key (PEM)', './tpp/tpp.key.pem')
  .action(async (options: { server?: string; cert: string; key: string }) => {
    const response = await sendSignedRequest({
      method: 'POST',
      url: addressOf('/v1/sandbox/console-links', options.server),
      credentials: {
        certPem: await readText(options.cert, 'TPP certificate'),
        keyPem: await readText(options.key, 'TPP key'),
      },
      digest: true,
    });
    const link = response.body as { href?: unknown; expiresAt?: unknown };
    if (response.status !== 201 || typeof link.href !== 'string') {
      process.stdout.write(
        `HTTP ${response.status}\n${typeof response.body === 'string' ? response.body : JSON.stringify(response.body, null, 2)}\n`,
      );
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`${link.href}\nexpires: ${String(link.expiresAt)} (it opens once)\n`);
  });

function roleList(value: string): PspRole[] {
  const roles = value
    .split(',')
    .map((r) => r.trim().toUpperCase())
    .filter((r) => r !== '');
  const unknown = roles.filter((r) => !isPspRole(r));
  if (unknown.length > 0)
    throw new InvalidArgumentError(`unknown role ${unknown.join(', ')}; the roles are ${PSP_ROLE_NAMES.join(', ')}`);
  return roles as PspRole[];
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new InvalidArgumentError(`cannot read the ${what} at '${path}'`);
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`tpp: ${(error as Error).message}\n`);
  process.exit(1);
});
