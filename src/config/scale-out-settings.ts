import { isIP } from 'node:net';
import type { Mode } from './mode.js';
import { Problem, parseInteger } from './setting-problem.js';

/** No proxy trusted, the number of proxies in front of the server, or their addresses and ranges. */
export type TrustProxy = false | number | string[];

/** Names proxy-addr (Fastify's trustProxy) takes for ranges of addresses. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: empty (trust no proxy: the client is the connection's peer), a hop count (the nearest
 * N proxies' X-Forwarded-For entries are believed), or addresses and CIDR ranges of the proxies,
 * separated by commas. Anything else is refused rather than guessed: a wrong value lets a client
 * choose the address its requests are counted and logged under.
 */
export function parseTrustProxy(text: string): TrustProxy | Problem {
  if (text === '') return false;
  const rule = `TRUST_PROXY must be empty, a number of proxy hops from 1 to 10, or the proxies' addresses or CIDR ranges (or ${PROXY_RANGE_NAMES.join(', ')}) separated by commas (got '${text}')`;
  if (/^\d+$/.test(text)) return parseInteger(text, 1, 10) ?? new Problem(rule);
  const entries = text.split(',').map((e) => e.trim());
  return entries.every(isProxyAddress) ? entries : new Problem(rule);
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || parseInteger(prefix, 0, family === 4 ? 32 : 128) !== undefined;
}

/**
 * SANDBOX_CA_CERT_FILE and SANDBOX_CA_KEY_FILE: both or neither. Several sandbox instances behind one
 * address must trust one CA, or a certificate one issued is refused by the others; production has no
 * sandbox CA.
 */
export function parseSandboxCaFiles(
  certFile: string,
  keyFile: string,
  mode: Mode | undefined,
): { certFile: string; keyFile: string } | undefined | Problem {
  if (certFile === '' && keyFile === '') return undefined;
  if (certFile === '' || keyFile === '')
    return new Problem(
      'SANDBOX_CA_CERT_FILE and SANDBOX_CA_KEY_FILE name the shared sandbox CA together: set both, or neither (each instance then makes its own in DATA_DIR)',
    );
  if (mode === 'production')
    return new Problem(
      'SANDBOX_CA_CERT_FILE and SANDBOX_CA_KEY_FILE are for sandbox mode: production has no sandbox CA',
    );
  return { certFile, keyFile };
}
