/**
 * The path and query of an address (absolute, or a path with its query) as the caller wrote them:
 * what the toolkit asks the bank for and what a signature's (request-target) covers. URL resolves
 * dot segments ("/a/%2e%2e/b" is "/b"), and the bank would be asked for another resource than the one
 * the caller named: through `tpp proxy`, a path the bank refuses when asked straight read another
 * resource. A path with characters a request line cannot hold is taken as URL encodes it.
 */
export function requestTargetOf(written: string): string {
  const parsed = new URL(written, 'http://localhost');
  const asWritten = written.startsWith('/')
    ? written
    : written.startsWith(parsed.origin)
      ? written.slice(parsed.origin.length)
      : '';
  const target = asWritten.split('#')[0]!;
  return REQUEST_TARGET.test(target) ? target : `${parsed.pathname}${parsed.search}`;
}

/** A path and query of visible ASCII only, as a request line holds it. */
const REQUEST_TARGET = /^\/[\x21-\x7e]*$/;
