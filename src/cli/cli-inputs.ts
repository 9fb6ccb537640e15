import { readFile } from 'node:fs/promises';
import { InvalidArgumentError, Option } from 'commander';
import { PSP_ROLE_NAMES, type PspRole, isPspRole } from '../domain/psp-role.js';

/** What the toolkit's commands read from their arguments and files, each with a message naming the argument. */

/** An answer as `tpp call` prints it: the status line, then the body (JSON indented), which `tpp pick` reads back. */
export function printAnswer(response: { status: number; body: unknown }): void {
  const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body, null, 2);
  process.stdout.write(`HTTP ${response.status}\n${body}\n`);
}

/** The server's address, given once: calls then name only their path. */
export function serverOption(): Option {
  return new Option('--server <url>', "the server's address, e.g. http://127.0.0.1:8080").env('TPP_BASE_URL');
}

/** A full address as given, or a path appended to the server's address (which may have a path of its own). */
export function addressOf(url: string, server: string | undefined): string {
  if (/^https?:\/\//i.test(url)) return url;
  if (server === undefined)
    throw new InvalidArgumentError(
      `'${url}' is a path: give the server's address once (TPP_BASE_URL=http://127.0.0.1:8080 or --server), or a full address`,
    );
  return `${server.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

export function roleList(value: string): PspRole[] {
  const roles = value
    .split(',')
    .map((r) => r.trim().toUpperCase())
    .filter((r) => r !== '');
  const unknown = roles.filter((r) => !isPspRole(r));
  if (unknown.length > 0)
    throw new InvalidArgumentError(`unknown role ${unknown.join(', ')}; the roles are ${PSP_ROLE_NAMES.join(', ')}`);
  return roles as PspRole[];
}

export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

export async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new InvalidArgumentError(`cannot read the ${what} at '${path}'`);
  }
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}
