/**
 * Whether a host lies in the domain of a TPP's certificate (Berlin Group, TPP-Notification-URI: "the
 * domain secured by the eIDAS QWAC certificate of the TPP in the field CN or SubjectAltName",
 * wildcards counted). Both are compared as ASCII in lower case: a certificate names an
 * internationalised domain by its A-labels (RFC 5280, 7.2), and the host is read by the WHATWG URL
 * parser, which writes it so (docs/decisions/0326).
 */

/** A DNS name a certificate may carry: LDH labels (a leading `*` label for a wildcard), two labels at least. */
const DNS_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The certificate's names that can cover a host: a CN or dNSName that is a DNS name, in lower case and
 * without a trailing dot. A CN that is an organisation's name ("Test TPP AS") covers nothing.
 */
export function certificateDomainNames(names: readonly string[]): string[] {
  const found = new Set<string>();
  for (const name of names) {
    const lower = name.trim().toLowerCase().replace(/\.$/, '');
    if (DNS_NAME.test(lower)) found.add(lower);
  }
  return [...found];
}

/**
 * Whether `name` (one of certificateDomainNames) covers `host` (lower case, no trailing dot).
 * - A wildcard `*.tpp.example` covers exactly one label more: `a.tpp.example`, neither `tpp.example`
 *   nor `a.b.tpp.example` (RFC 6125, 6.4.3). A wildcard on fewer than two labels (`*.example`) covers
 *   nothing, and a partial one (`a*.tpp.example`) is no DNS name here.
 * - An exact name covers itself and every name under it: Berlin Group's own example counts
 *   www.example-TPP.com and notifications.example-TPP.com as in the domain of example-TPP.com
 *   (docs/decisions/0326).
 */
export function coversHost(name: string, host: string): boolean {
  if (name.startsWith('*.')) {
    const base = name.slice(2);
    if (!base.includes('.')) return false;
    const label = host.slice(0, host.length - base.length - 1);
    return host.endsWith(`.${base}`) && label.length > 0 && !label.includes('.');
  }
  return host === name || host.endsWith(`.${name}`);
}
