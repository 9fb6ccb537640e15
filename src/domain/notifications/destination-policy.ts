import { BlockList, isIP } from 'node:net';

/**
 * Which addresses the bank may send a notification to (docs/notifications.md, "Whom the bank
 * calls"; docs/decisions/0335): a TPP names the URI, so without this it could make the bank call into the bank's own
 * network (server-side request forgery). The address is judged after the name is resolved, once per
 * try, and the connection goes to the address judged (notification-sender.ts).
 * - production: public unicast addresses only;
 * - sandbox: loopback only (a TPP developer's receiver on their own machine, `tpp listen`), and the
 *   networks the operator allows besides (NOTIFICATION_ALLOWED_NETWORKS).
 */
export interface DestinationPolicy {
  mode: 'production' | 'sandbox';
  /** CIDR blocks allowed besides, such as a CI network's receiver (sandbox only). */
  allowedNetworks: readonly string[];
}

/** IPv4 ranges never public, each with why; their IPv6-embedded forms are refused too. */
const NOT_PUBLIC_IPV4: readonly (readonly [base: string, prefix: number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with cloud metadata services (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and broadcast
];

const LOOPBACK = (() => {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  list.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
  return list;
})();

const NOT_PUBLIC = (() => {
  const list = new BlockList();
  for (const [base, prefix] of NOT_PUBLIC_IPV4) {
    list.addSubnet(base, prefix, 'ipv4');
    const [a, b, c, d] = base.split('.').map(Number) as [number, number, number, number];
    const high = ((a << 8) | b).toString(16);
    const low = ((c << 8) | d).toString(16);
    // IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms of the same addresses.
    list.addSubnet(`::ffff:${high}:${low}`, 96 + prefix, 'ipv6');
    list.addSubnet(`::${high}:${low}`, 96 + prefix, 'ipv6');
    list.addSubnet(`64:ff9b::${high}:${low}`, 96 + prefix, 'ipv6');
    list.addSubnet(`2002:${high}:${low}::`, 16 + prefix, 'ipv6');
  }
  list.addAddress('::', 'ipv6'); // unspecified
  list.addAddress('::1', 'ipv6'); // loopback
  list.addSubnet('fc00::', 7, 'ipv6'); // unique local
  list.addSubnet('fe80::', 10, 'ipv6'); // link-local
  list.addSubnet('ff00::', 8, 'ipv6'); // multicast
  list.addSubnet('2001:db8::', 32, 'ipv6'); // documentation
  return list;
})();

/** Why the bank must not send to `address` under `policy`; undefined when it may. */
export function refusedDestination(address: string, policy: DestinationPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return `'${address}' is not an IP address`;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (policy.mode === 'sandbox') {
    if (LOOPBACK.check(address, type) || inAllowed(address, type, policy.allowedNetworks)) return undefined;
    return `${address} is not a loopback address: the sandbox sends notifications to this machine only, unless NOTIFICATION_ALLOWED_NETWORKS allows more`;
  }
  if (NOT_PUBLIC.check(address, type))
    return `${address} is not a public address (private, loopback, link-local or reserved): the bank does not send into its own network`;
  return undefined;
}

function inAllowed(address: string, type: 'ipv4' | 'ipv6', networks: readonly string[]): boolean {
  if (networks.length === 0) return false;
  const list = new BlockList();
  for (const network of networks) {
    const [base, prefix] = network.split('/');
    const family = isIP(base ?? '');
    if (family === 0) continue;
    list.addSubnet(base!, Number(prefix ?? (family === 4 ? 32 : 128)), family === 4 ? 'ipv4' : 'ipv6');
  }
  return list.check(address, type);
}
