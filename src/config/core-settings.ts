import {
  CORE_POLL_SECONDS_MAX,
  CORE_POLL_SECONDS_MIN,
  CORE_TIMEOUT_MS_MAX,
  CORE_TIMEOUT_MS_MIN,
} from '../domain/limits.js';
import type { CoreSetting } from '../core/core-setting.js';
import type { Mode } from './mode.js';
import { Problem, integerIn, isHttpUrl } from './setting-problem.js';

export type { CoreSetting };

export interface CoreSettingTexts {
  core: string;
  url: string;
  keyFile: string;
  timeoutMs: string;
  pollSeconds: string;
}

/**
 * CORE and CORE_URL. The sandbox's banks are each TPP's embedded core. Production says which: a
 * bank's own core (CORE_URL), or the embedded ledger explicitly (CORE=embedded), for a demo or a bank
 * without a core yet; a production start that names neither stops, since its accounts would be
 * nobody's and its payments would go nowhere (issue 38).
 */
export function parseCoreSetting(texts: CoreSettingTexts, mode: Mode | undefined): CoreSetting | Problem {
  const { core, url } = texts;
  if (core !== '' && core !== 'embedded' && core !== 'http')
    return new Problem(`CORE must be 'embedded' or 'http' (got '${core}')`);
  // A MODE that is itself wrong is reported on its own; which core it would need cannot be told.
  if (mode === undefined) return { kind: 'embedded' };
  if (mode === 'sandbox') {
    return core === 'http' || url !== ''
      ? new Problem(
          "CORE_URL and CORE=http are for production: in the sandbox each TPP's bank is an embedded core of its own",
        )
      : { kind: 'embedded' };
  }
  if (core === 'embedded') {
    return url === ''
      ? { kind: 'embedded' }
      : new Problem('CORE=embedded and CORE_URL contradict each other: set one of them');
  }
  if (url === '')
    return new Problem(
      "production needs the bank's core: set CORE_URL to the address of the bank's core adapter (docs/core-api.yaml), or CORE=embedded to keep the accounts in this server's own ledger (a demo, or a bank without a core yet)",
    );
  if (!isHttpUrl(url)) return new Problem(`CORE_URL must be an absolute http or https address (got '${url}')`);
  if (texts.keyFile === '')
    return new Problem(
      "CORE_KEY_FILE must name the key shared with the bank's core (64 hex digits or more; `openssl rand -hex 32`): every call to the core and every callback from it is signed with it",
    );
  const timeoutMs = integerIn(
    texts.timeoutMs,
    CORE_TIMEOUT_MS_MIN,
    CORE_TIMEOUT_MS_MAX,
    `CORE_TIMEOUT_MS must be a whole number of milliseconds from ${CORE_TIMEOUT_MS_MIN} to ${CORE_TIMEOUT_MS_MAX}`,
  );
  if (timeoutMs instanceof Problem) return timeoutMs;
  const pollSeconds = integerIn(
    texts.pollSeconds,
    CORE_POLL_SECONDS_MIN,
    CORE_POLL_SECONDS_MAX,
    `CORE_POLL_SECONDS must be a whole number of seconds from ${CORE_POLL_SECONDS_MIN} to ${CORE_POLL_SECONDS_MAX}`,
  );
  if (pollSeconds instanceof Problem) return pollSeconds;
  return { kind: 'http', url: url.replace(/\/+$/, ''), keyFile: texts.keyFile, timeoutMs, pollSeconds };
}
