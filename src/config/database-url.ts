import type { DatabaseLocation } from '../store/open-store.js';
import { Problem } from './setting-problem.js';

/** DATABASE_URL: a SQLite file or a PostgreSQL address. */
export function parseDatabaseUrl(url: string): DatabaseLocation | Problem {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    return path === ''
      ? new Problem(`DATABASE_URL 'sqlite:' needs a file path after the colon, for example sqlite:./data/psd2.db`)
      : { kind: 'sqlite', path };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    try {
      new URL(url);
      return { kind: 'postgres', url };
    } catch {
      return new Problem(`DATABASE_URL is not a valid PostgreSQL address (got '${redactPassword(url)}')`);
    }
  }
  return new Problem(`DATABASE_URL must start with 'sqlite:' or 'postgres://' (got '${redactPassword(url)}')`);
}

/** A database password must never reach a log or an error message. */
export function redactPassword(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
