#!/usr/bin/env node
import { Command } from 'commander';
import { causeOf } from '../toolkit/cause.js';
import { addCertificateCommands } from './certificate-commands.js';
import { addListenCommand } from './listen-command.js';
import { addPageCommands } from './page-commands.js';
import { addPickCommand } from './pick-command.js';
import { addProxyCommand } from './proxy-command.js';
import { addRequestCommands } from './request-commands.js';
import { addWaitCommand } from './wait-command.js';

/**
 * The TPP toolkit on the command line: make a CA, issue a TPP certificate with PSD2 roles, sign a
 * request (for curl) or send it, complete a PSU's SCA on the bank's pages, wait for a server to be
 * ready, sign for any HTTP tool (a local proxy), receive and check the bank's notifications. `tpp --help` lists it all. The server's address is given once, as TPP_BASE_URL or --server,
 * and each call names a path.
 */
const program = new Command('tpp')
  .description('TPP toolkit: certificates with PSD2 roles and signed requests for the payment initiation interface')
  .showHelpAfterError();
addCertificateCommands(program);
addRequestCommands(program);
addPageCommands(program);
addWaitCommand(program);
addProxyCommand(program);
addPickCommand(program);
addListenCommand(program);

// Exits as soon as the command is done, whatever is still open (a connection kept alive, a timeout's
// timer). Writes to a pipe or a file are synchronous, so nothing is cut off.
program.parseAsync().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    process.stderr.write(`tpp: ${causeOf(error)}\n`);
    process.exit(1);
  },
);
