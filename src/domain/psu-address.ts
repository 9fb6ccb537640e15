import { BlockList, isIP } from 'node:net';

/**
 * PSU-IP-Address says the PSU is present (RTS 36(5): a read the PSU asks for does not count against
 * the four a day). An address no PSU's device can have sent the request from cannot say that: the
 * unspecified address, loopback, multicast, IPv4's "this network" and limited broadcast. Each is
 * refused in its IPv4-mapped IPv6 form too (BlockList checks both).
 */
const NOT_A_PSU: BlockList = (() => {
  const list = new BlockList();
  list.addSubnet('0.0.0.0', 8, 'ipv4'); // unspecified, and "this network" (RFC 1122: never a source)
  list.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
  list.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
  list.addAddress('255.255.255.255', 'ipv4'); // limited broadcast
  list.addAddress('::', 'ipv6'); // unspecified
  list.addAddress('::1', 'ipv6'); // loopback
  list.addSubnet('ff00::', 8, 'ipv6'); // multicast
  return list;
})();

/** Words for the header's rule: what a valid PSU-IP-Address is. */
export const PSU_ADDRESS_RULE =
  "an IPv4 or IPv6 address a PSU's device can have (not unspecified such as 0.0.0.0 or ::, loopback, multicast or broadcast)";

/** Whether `value` is an IP address a PSU's device can have sent a request from. */
export function isPsuAddress(value: string): boolean {
  const family = isIP(value);
  // A zone (fe80::1%eth0) names an interface of the sender's own host: never a PSU's address as forwarded.
  if (family === 0 || value.includes('%')) return false;
  return !NOT_A_PSU.check(value, family === 4 ? 'ipv4' : 'ipv6');
}
