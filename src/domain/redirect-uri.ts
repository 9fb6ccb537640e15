/**
 * TPP-Redirect-URI: where the PSU's browser returns after SCA. The server later adds psu-id,
 * tpp-session-id and message to it with the WHATWG URL parser, as a browser would read it; an address
 * that parser refuses (a port over 65535, `http://[`, `http://%zz/`) would strand the PSU on an error
 * page after approving, so it is refused when the TPP sends it, not when the PSU returns.
 */
export function isHttpAddress(value: string): boolean {
  if (/\s/.test(value)) return false;
  return parseHttpAddress(value) !== undefined;
}

/** The address as a URL when it is an absolute http or https address; undefined otherwise. */
export function parseHttpAddress(value: string): URL | undefined {
  const url = URL.parse(value);
  return url?.protocol === 'http:' || url?.protocol === 'https:' ? url : undefined;
}
