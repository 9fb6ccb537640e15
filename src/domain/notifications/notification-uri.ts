import { certificateDomainNames, coversHost } from './certificate-domain.js';

/**
 * TPP-Notification-URI: where the bank sends a resource's notifications (docs/notifications.md).
 * A value that is no URI is a 400; a URI the bank will not call (not https, outside the domain of
 * the TPP's certificate) is answered ASPSP-Notification-Support: false, and the create succeeds
 * (Berlin Group: "ASPSPs may respond with ASPSP-Notification-Support set to false, if the provided
 * URIs do not comply"; docs/decisions/0327).
 */

/** What the rule says in words, for the 400 a value that is no URI gets. */
export const NOTIFICATION_URI_RULE =
  'an absolute URI (RFC 3986) such as https://notifications.tpp.example/psd2: ASCII only, an internationalised host in its xn-- form';

/** RFC 3986's characters (unreserved, reserved, and % of a percent-encoding), after a scheme. */
const URI_SYNTAX = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

/**
 * Whether the value is an absolute URI: RFC 3986's characters and scheme, every % starting a
 * percent-encoding, one fragment at most, and readable by the WHATWG URL parser the bank will call
 * it with (a port over 65535 is not).
 */
export function isNotificationUri(value: string): boolean {
  if (!URI_SYNTAX.test(value)) return false;
  if (/%(?![0-9A-Fa-f]{2})/.test(value)) return false;
  if (value.indexOf('#') !== value.lastIndexOf('#')) return false;
  return URL.parse(value) !== null;
}

/** Where the bank may send, or why it will not. */
export type NotificationUriJudgement = { compliant: true; uri: string } | { compliant: false; reason: string };

/** The hosts a TPP's own tests listen on: the sandbox sends there, over http too (docs/decisions/0327). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Judges a well-formed URI (isNotificationUri) against the names of the TPP's certificate (its CN
 * and SubjectAltName dNSNames). The URI kept is the WHATWG parser's form of it (host in lower case
 * and in xn-- form, IPv4 written in dots), so that the host judged is the host called.
 */
export function judgeNotificationUri(
  value: string,
  certificateNames: readonly string[],
  sandbox: boolean,
): NotificationUriJudgement {
  const url = URL.parse(value);
  if (url === null) return { compliant: false, reason: 'it cannot be read as a URL' };
  const refusal = refusalOf(url, value, certificateNames, sandbox);
  return refusal === undefined ? { compliant: true, uri: url.href } : { compliant: false, reason: refusal };
}

function refusalOf(url: URL, value: string, certificateNames: readonly string[], sandbox: boolean): string | undefined {
  // A trailing dot names the same host (a fully qualified name); both are compared without it.
  const host = url.hostname.replace(/\.$/, '');
  const loopback = sandbox && LOOPBACK_HOSTS.has(host);
  const httpNote = sandbox ? ' (in the sandbox also http://localhost or http://127.0.0.1, with any port)' : '';
  if (url.protocol !== 'https:' && !(loopback && url.protocol === 'http:'))
    return `its scheme is ${url.protocol.slice(0, -1)}; the bank sends notifications over https only${httpNote}`;
  // userinfo: https://tpp.example@evil.example names the host evil.example; credentials never go in the URI.
  if (url.username !== '' || url.password !== '')
    return `it carries userinfo (${url.username === '' ? '' : 'a user name '}before @); the bank calls a URI without credentials, and its host is ${host}`;
  if (value.includes('#')) return 'it has a fragment (#…), which no HTTP request carries; send the URI without it';
  if (loopback) return undefined;
  if (/^\d+(\.\d+){3}$/.test(host) || host.startsWith('['))
    return `its host ${host} is an IP address; the bank calls only a host name in the domain of the TPP's certificate`;
  const names = certificateDomainNames(certificateNames);
  if (names.some((name) => coversHost(name, host))) return undefined;
  const held =
    names.length === 0
      ? "the TPP's certificate names no DNS domain (neither its CN nor a SubjectAltName dNSName)"
      : `the TPP's certificate covers ${names.join(', ')}`;
  return `its host ${host} is outside the domain of the TPP's certificate: ${held}`;
}
