import { type Command, Option } from 'commander';
import { PROXY_DEFAULT_PORT, startSigningProxy } from '../toolkit/signing-proxy.js';
import { positiveInteger, readText, serverOption } from './cli-inputs.js';

/**
 * `tpp proxy`: the local signing proxy (src/toolkit/signing-proxy.ts) with the TPP's certificate, for
 * any HTTP tool. It runs until Ctrl-C or SIGTERM.
 */
export function addProxyCommand(program: Command): void {
  program
    .command('proxy')
    .description(
      'a local proxy that signs each plain HTTP request with your certificate: point Postman, Bruno or curl at it',
    )
    .addOption(serverOption().makeOptionMandatory())
    .addOption(new Option('--port <port>', 'port to listen on').argParser(positiveInteger).default(PROXY_DEFAULT_PORT))
    .option('--host <address>', 'address to listen on (keep it local: whoever reaches it signs as you)', '127.0.0.1')
    .option('--cert <file>', 'TPP certificate (PEM)', './tpp/tpp.cert.pem')
    .option('--key <file>', 'TPP private key (PEM)', './tpp/tpp.key.pem')
    .action(async (options: { server: string; port: number; host: string; cert: string; key: string }) => {
      const proxy = await startSigningProxy({
        upstream: options.server,
        credentials: {
          certPem: await readText(options.cert, 'TPP certificate'),
          keyPem: await readText(options.key, 'TPP key'),
        },
        port: options.port,
        host: options.host,
      });
      process.stdout.write(`signing proxy: ${proxy.url} -> ${options.server} (Ctrl-C stops it)\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await proxy.close();
    });
}
