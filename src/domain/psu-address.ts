import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges no PSU's device sends a request from, each with why. PSU-IP-Address says the PSU is
 * present (RTS 36(5): a read the PSU asks for does not count against the four a day); an address
 * from these cannot say that. The documentation ranges (192.0.2.0/24 and the like) are not among
 * them: TPPs' tests use them.
 */
const REFUSED_IPV4: readonly (readonly [base: string, prefix: number, why: string])[] = [
  ['0.0.0.0', 8, 'unspecified, and "this network" (RFC 1122: never a source)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (RFC 3927): never routed beyond its link'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (RFC 1112), and the limited broadcast 255.255.255.255'],
];

/**
 * The same IPv4 address written into IPv6, in each form that carries one: IPv4-compatible (::a.b.c.d,
 * RFC 4291, deprecated), NAT64's well-known prefix (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16,
 * RFC 3056). The IPv4-mapped form (::ffff:a.b.c.d) BlockList checks by itself.
 */
function embeddedForms(base: string, prefix: number): [address: string, prefix: number][] {
  const [a, b, c, d] = base.split('.').map(Number) as [number, number, number, number];
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  return [
    [`::${high}:${low}`, 96 + prefix],
    [`64:ff9b::${high}:${low}`, 96 + prefix],
    [`2002:${high}:${low}::`, 16 + prefix],
  ];
}

const NOT_A_PSU: BlockList = (() => {
  const list = new BlockList();
  for (const [base, prefix] of REFUSED_IPV4) {
    list.addSubnet(base, prefix, 'ipv4');
    for (const [address, bits] of embeddedForms(base, prefix)) list.addSubnet(address, bits, 'ipv6');
  }
  list.addAddress('::1', 'ipv6'); // loopback
  list.addSubnet('fe80::', 10, 'ipv6'); // link-local: never routed beyond its link
  list.addSubnet('ff00::', 8, 'ipv6'); // multicast
  return list;
})();

/** Words for the header's rule: what a valid PSU-IP-Address is. */
export const PSU_ADDRESS_RULE =
  "an IPv4 or IPv6 address a PSU's device can have (not unspecified such as 0.0.0.0 or ::, loopback, link-local, multicast, reserved or broadcast, in any IPv6 form of them)";

/** Whether `value` is an IP address a PSU's device can have sent a request from. */
export function isPsuAddress(value: string): boolean {
  const family = isIP(value);
  // A zone (fe80::1%eth0) names an interface of the sender's own host: never a PSU's address as forwarded.
  if (family === 0 || value.includes('%')) return false;
  return !NOT_A_PSU.check(value, family === 4 ? 'ipv4' : 'ipv6');
}
