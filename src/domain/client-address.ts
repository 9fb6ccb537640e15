import { isIPv6 } from 'node:net';

/**
 * The group a client address counts in for per-address limits: an IPv4 address itself (an
 * IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address by its /64, the block one customer
 * is given whole (RFC 6177), so that an attacker cannot count as 2^64 addresses.
 */
export function addressGroupOf(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  // An IPv4 address, as most are: isIPv6's pattern is a measurable part of a status read.
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
