import { hostname } from 'node:os';

/**
 * The exit codes of a start that fails, each its own so that a supervisor (systemd, Kubernetes, a
 * script) can tell them apart without reading the log; README, "Running it in production".
 * - 1: anything else (a fault; its log line carries the stack), or a second signal at shutdown.
 * - 2: the configuration: a setting, a trusted CA, the key for national identity numbers.
 * - 3: the database could not be opened or migrated (not there, refused the connection or the
 *   login, a file that cannot be made): one JSON log line gives the reason.
 */
export const EXIT_CODE = { fault: 1, configuration: 2, database: 3 } as const;

/** pino's level number of a fatal line, as the server's own log lines carry it. */
const FATAL = 60;

/**
 * One log line, in the shape of the server's JSON log lines (pino's), for a start that fails before
 * the server's logger exists; on stdout, where the log lines go.
 */
export function logStartFailure(msg: string, fields: Record<string, unknown>): void {
  process.stdout.write(
    `${JSON.stringify({ level: FATAL, time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg })}\n`,
  );
}

/** What a failure's error says, without its stack: the reason, and the driver's code (ECONNREFUSED, 28P01, SQLITE_CANTOPEN) when it has one. */
export function reasonOf(error: unknown): { reason: string; code?: string } {
  const reason = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  // An AggregateError (a host with several addresses, each refused) says nothing itself; its parts do.
  const parts = error instanceof AggregateError ? error.errors.map((e: unknown) => reasonOf(e).reason) : [];
  return {
    reason: reason === '' && parts.length > 0 ? [...new Set(parts)].join('; ') : reason,
    ...(typeof code === 'string' ? { code } : {}),
  };
}
