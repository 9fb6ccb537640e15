import { ensureCoreKeyFile } from '../core/http/core-key-file.js';
import { readCoreKey } from '../core/http/core-signature.js';
import { startReferenceCore } from './reference-core.js';
import { referenceCoreEnvironment } from './reference-core-settings.js';

/**
 * `npm run core`: the reference core (docs/core.md). Exit 2 on a setting it cannot use, naming it;
 * stops on SIGTERM or SIGINT after the requests in flight.
 */
async function main(): Promise<void> {
  const settings = referenceCoreEnvironment(process.env);
  if (Array.isArray(settings)) {
    for (const problem of settings) process.stderr.write(`reference core: ${problem}\n`);
    process.exit(2);
  }
  let key;
  if (settings.keyFileGiven) {
    key = await readCoreKey(settings.keyFile);
  } else {
    const ensured = await ensureCoreKeyFile(settings.keyFile);
    key = ensured.key;
    process.stdout.write(
      `reference core: the shared key is in ${settings.keyFile}${ensured.made ? ' (made now)' : ''}; give the server the same file as CORE_KEY_FILE\n`,
    );
  }
  const core = await startReferenceCore({ ...settings, key, logger: true });
  // What a production server needs to reach it, ready to paste.
  process.stdout.write(
    `reference core: a production server reaches it with CORE_URL=${core.url} CORE_KEY_FILE=${settings.keyFile}` +
      (settings.callbackUrl === undefined
        ? '; no CALLBACK_URL: the server polls for status reports\n'
        : `; status reports are pushed to ${settings.callbackUrl.toString()}\n`),
  );
  core.app.log.info(
    { url: core.url, callback: settings.callbackUrl?.toString() ?? null, faults: core.faults.current },
    'reference core listening',
  );
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      core.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`reference core: ${(error as Error).message}\n`);
  process.exit(1);
});
