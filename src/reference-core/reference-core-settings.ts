import { join } from 'node:path';
import type { DatabaseLocation } from '../store/open-store.js';
import { type Faults, faultsFromEnvironment } from './faults.js';

/** The reference core's own port by default: beside the server's 8080, as a bank's core sits beside the gateway. */
export const REFERENCE_CORE_DEFAULT_PORT = 8090;

export interface ReferenceCoreEnvironment {
  host: string;
  port: number;
  database: DatabaseLocation;
  /** CORE_KEY_FILE, or ./data/core.key (made on the first start). */
  keyFile: string;
  keyFileGiven: boolean;
  callbackUrl: URL | undefined;
  faults: Faults;
}

/** The settings of `npm run core` from its environment, or the problems that stop it (each naming its variable). */
export function referenceCoreEnvironment(env: NodeJS.ProcessEnv): ReferenceCoreEnvironment | string[] {
  const problems: string[] = [];
  // An empty variable is one left unset, as the server reads its own.
  const read = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  const portText = read('PORT') ?? String(REFERENCE_CORE_DEFAULT_PORT);
  const port = /^\d{1,5}$/.test(portText) && Number(portText) <= 65_535 ? Number(portText) : undefined;
  if (port === undefined) problems.push(`PORT must be a TCP port from 0 to 65535 (got ${portText})`);
  const databaseUrl = read('DATABASE_URL') ?? 'sqlite:./data/core.db';
  let database: DatabaseLocation | undefined;
  if (databaseUrl.startsWith('sqlite:')) database = { kind: 'sqlite', path: databaseUrl.slice('sqlite:'.length) };
  else if (/^postgres(ql)?:\/\//.test(databaseUrl)) database = { kind: 'postgres', url: databaseUrl };
  else problems.push('DATABASE_URL must be sqlite:<file> or postgres://user:pass@host:5432/db');
  let callbackUrl: URL | undefined;
  const callback = read('CALLBACK_URL');
  if (callback !== undefined) {
    try {
      callbackUrl = new URL(callback);
      if (callbackUrl.protocol !== 'http:' && callbackUrl.protocol !== 'https:') throw new Error();
    } catch {
      problems.push(
        `CALLBACK_URL must be an http(s) address, the server's POST /core/v1/status-reports (got ${callback})`,
      );
    }
  }
  const faults = faultsFromEnvironment(env);
  if (typeof faults === 'string') problems.push(faults);
  const keyFile = read('CORE_KEY_FILE');
  const given = keyFile !== undefined;
  if (problems.length > 0 || port === undefined || database === undefined || typeof faults === 'string')
    return problems;
  return {
    host: read('HOST') ?? '127.0.0.1',
    port,
    database,
    keyFile: keyFile ?? join(process.cwd(), 'data', 'core.key'),
    keyFileGiven: given,
    callbackUrl,
    faults,
  };
}
