import { type Config, loadConfig } from './config/config.js';
import { ensureSandboxCa, readSharedSandboxCa } from './security/sandbox-ca.js';
import type { ParsedCertificate } from './security/tpp-certificate.js';

/** What the early start hands main(): the configuration and the sandbox CA being made, or why the configuration could not be read. */
export type EarlyStart =
  | { config: Config; sandboxCa: Promise<ParsedCertificate | undefined>; sandboxCaStarted: number }
  | { configError: unknown };

function start(): EarlyStart {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return { configError: error };
  }
  const sandboxCaStarted = performance.now();
  // Instances behind one address share the operator's CA (SANDBOX_CA_CERT_FILE); one alone makes its own.
  const sandboxCa =
    config.mode !== 'sandbox'
      ? Promise.resolve(undefined)
      : config.sandboxCaFiles !== undefined
        ? readSharedSandboxCa(config.sandboxCaFiles)
        : ensureSandboxCa(config.dataDir);
  // Its failure is met where main() awaits it; until then it must not count as unhandled.
  sandboxCa.catch(() => undefined);
  return { config, sandboxCa, sandboxCaStarted };
}

/**
 * The first module main.ts imports, so that it runs before the rest of the server is loaded: reads
 * the configuration and, on a sandbox's first start, makes the sandbox CA (a few milliseconds,
 * security/sandbox-ca.ts), whose files are written while this thread loads and builds the app: the
 * CA is then ready by the time the app is (docs/decisions/0365).
 * main() reports a bad configuration and a CA it must not trust.
 */
export const earlyStart: EarlyStart = start();
