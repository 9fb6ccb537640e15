import { type Command, InvalidArgumentError, Option } from 'commander';
import type { HeardNotification } from '../toolkit/notification-listener.js';
import { addressOf, positiveInteger, serverOption } from './cli-inputs.js';

interface ListenOptions {
  server?: string;
  port: number;
  host: string;
  until?: string;
  timeout?: number;
  format: 'json' | 'text';
}

/**
 * `tpp listen`: a local receiver of the bank's notifications (docs/notifications.md, "In the sandbox")
 * that checks each one's signature with the bank's JWKS and prints it, one line each; with --until it
 * exits 0 once a verified notification tells that status, so a TPP's test waits for ACSC instead of
 * polling. It runs until then, --timeout, or Ctrl-C.
 */
export function addListenCommand(program: Command): void {
  program
    .command('listen')
    .description(
      "receive the bank's notifications locally: check each signature with the bank's JWKS and print it (a line of JSON each)",
    )
    .addOption(serverOption())
    .addOption(new Option('--port <port>', 'port to listen on (0: any free one)').argParser(port).default(0))
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--until <status>', 'exit 0 once a verified notification tells this status (e.g. ACSC, finalised, valid)')
    .addOption(new Option('--timeout <seconds>', 'exit 1 after this long').argParser(positiveInteger))
    .addOption(new Option('--format <format>', 'each line as').choices(['json', 'text']).default('json'))
    .action(async (options: ListenOptions) => listen(options));
}

function port(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535)
    throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return Number(value);
}

async function listen(options: ListenOptions): Promise<void> {
  const jwksUrl = addressOf('/.well-known/jwks.json', options.server);
  const { startNotificationListener } = await import('../toolkit/notification-listener.js');
  let done: (outcome: { status: string } | { timedOut: true } | { stopped: true }) => void = () => undefined;
  const ended = new Promise<Parameters<typeof done>[0]>((resolve) => (done = resolve));
  const listener = await startNotificationListener({
    jwksUrl,
    port: options.port,
    host: options.host,
    onNotification: (heard) => {
      print(options.format, heard);
      const status = heard.transactionStatus ?? heard.scaStatus ?? heard.consentStatus;
      // Only a verified notification counts: anyone may POST to a port on this machine.
      if (options.until !== undefined && heard.verified && status === options.until) done({ status });
    },
  });
  process.stdout.write(
    options.format === 'json' ? `${JSON.stringify({ listening: listener.url })}\n` : `listening: ${listener.url}\n`,
  );
  const timer =
    options.timeout === undefined ? undefined : setTimeout(() => done({ timedOut: true }), options.timeout * 1000);
  const stop = () => done({ stopped: true });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const outcome = await ended;
  clearTimeout(timer);
  await listener.close();
  if ('timedOut' in outcome)
    throw new Error(
      options.until === undefined
        ? `stopped after ${options.timeout} s`
        : `no verified notification with status ${options.until} within ${options.timeout} s`,
    );
}

function print(format: ListenOptions['format'], heard: HeardNotification): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(heard)}\n`);
    return;
  }
  const status = heard.transactionStatus ?? heard.scaStatus ?? heard.consentStatus ?? '-';
  const resource = heard.resource as { type?: string; id?: string } | undefined;
  const fields = [
    heard.receivedAt,
    heard.verified ? 'verified' : 'NOT VERIFIED',
    heard.eventType ?? '-',
    status,
    resource === undefined ? '-' : `${resource.type ?? '?'} ${resource.id ?? '?'}`,
    heard.eventId ?? '-',
  ];
  process.stdout.write(`${fields.join('  ')}${heard.reason === undefined ? '' : `  (${heard.reason})`}\n`);
}
