import { type Command, InvalidArgumentError, Option } from 'commander';
import { type SignOptions, signRequest } from '../toolkit/request-signer.js';
import { sendSignedRequest } from '../toolkit/tpp-client.js';
import { addressOf, printAnswer, readText, serverOption, shellQuote } from './cli-inputs.js';

/** `tpp sign` and `tpp call`: a signed request printed (for curl) or sent. */
export function addRequestCommands(program: Command): void {
  requestCommand(program, 'sign', 'print the headers of a signed request, or a curl command that sends it')
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

  requestCommand(program, 'call', 'send a signed request and print the status and the answer').action(
    async (method: string, url: string, options: RequestOptions) => {
      const response = await sendSignedRequest(await signOptions(method, url, options));
      printAnswer(response);
      if (response.status >= 400) process.exitCode = 1;
    },
  );
}

function requestCommand(program: Command, name: string, description: string) {
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
