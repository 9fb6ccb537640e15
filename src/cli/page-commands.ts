import type { Command } from 'commander';
import { Option } from 'commander';
import { approveSca } from '../toolkit/sca-approver.js';
import { sendSignedRequest } from '../toolkit/tpp-client.js';
import { addressOf, printAnswer, readText, serverOption } from './cli-inputs.js';

/** `tpp approve`, `tpp console` and `tpp docs`: the bank's pages, as the PSU would use them and as the TPP's developer opens its bank. */
export function addPageCommands(program: Command): void {
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
      new Option('--cancel', 'press Cancel on the log-in page instead of logging in').conflicts([
        'accounts',
        'decline',
      ]),
    )
    .addOption(serverOption())
    .action((link: string, options: ApproveOptions) => approve(program, link, options));

  linkCommand(
    program,
    'console',
    '/v1/sandbox/console-links',
    "print a link to your sandbox bank's console (customers, payments, consents, the clock) for a browser: it opens once, within 5 minutes",
  );
  linkCommand(
    program,
    'docs',
    '/v1/sandbox/docs-links',
    'print a link to the API reference (/docs) that signs as you, in your sandbox bank: opened once within 5 minutes, it binds a key the browser makes to your bank',
  );
}

interface ApproveOptions {
  customer?: string;
  code: string;
  accounts?: string[];
  decline?: boolean;
  cancel?: boolean;
  server?: string;
}

/** Goes through the SCA's pages as `tpp approve` asks, and prints what the bank answered. */
async function approve(program: Command, link: string, options: ApproveOptions): Promise<void> {
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
}

/** A command that prints a one-time link a signed request asks for: the console's, or /docs's. */
function linkCommand(program: Command, name: string, path: string, description: string): void {
  program
    .command(name)
    .description(description)
    .addOption(serverOption())
    .option('--cert <file>', 'TPP certificate (PEM)', './tpp/tpp.cert.pem')
    .option('--key <file>', 'TPP private key (PEM)', './tpp/tpp.key.pem')
    .action(async (options: { server?: string; cert: string; key: string }) => {
      const response = await sendSignedRequest({
        method: 'POST',
        url: addressOf(path, options.server),
        credentials: {
          certPem: await readText(options.cert, 'TPP certificate'),
          keyPem: await readText(options.key, 'TPP key'),
        },
        digest: true,
      });
      const link = response.body as { href?: unknown; expiresAt?: unknown };
      if (response.status !== 201 || typeof link.href !== 'string') {
        printAnswer(response);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${link.href}\nexpires: ${String(link.expiresAt)} (it opens once)\n`);
    });
}
