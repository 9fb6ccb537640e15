import { isIP } from 'node:net';
import { Problem } from './setting-problem.js';

/** The bank's notifications to TPPs (docs/notifications.md). */
export interface NotificationSettings {
  /** PEM file of the key that signs them; undefined: notification-signing-key.pem in the data folder, made on the first start. */
  signingKeyFile: string | undefined;
  /** CIDR blocks a sandbox may send to besides loopback (a CI network's receiver); production sends to public addresses only. */
  allowedNetworks: string[];
}

/**
 * NOTIFICATION_ALLOWED_NETWORKS: comma-separated CIDR blocks (`10.1.0.0/16,fd00::/8`), sandbox only:
 * production never sends into private networks, so a list there is a mistake the start reports.
 */
export function parseAllowedNetworks(text: string, production: boolean): string[] | Problem {
  const networks = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (networks.length > 0 && production)
    return new Problem(
      'NOTIFICATION_ALLOWED_NETWORKS is for the sandbox only: production sends notifications to public addresses only',
    );
  for (const network of networks) {
    const [base = '', prefix, extra] = network.split('/');
    const family = isIP(base);
    const bits = prefix === undefined ? undefined : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    if (family === 0 || extra !== undefined || (bits !== undefined && !(bits <= (family === 4 ? 32 : 128))))
      return new Problem(
        `NOTIFICATION_ALLOWED_NETWORKS must be comma-separated IP addresses or CIDR blocks such as 10.1.0.0/16 (got '${network}')`,
      );
  }
  return networks;
}
