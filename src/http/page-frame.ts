import type { FastifyReply } from 'fastify';

/**
 * What every HTML page of the bank shares, the SCA pages and the sandbox console alike: the
 * security headers of its answer and the start of its Eta layout. Kept in one place so that a
 * header added for one kind of page is not missed on the other.
 */

/**
 * The headers of an HTML page: never cached (it shows a PSU's or a TPP's data), never framed, no
 * Referer sent on (addresses carry tokens), and a CSP that allows only the page's inline style and
 * forms posted to `formAction` (the SCA pages also post back to the TPP's redirect address).
 */
export function setPageHeaders(reply: FastifyReply, formAction: string): void {
  reply.header('Cache-Control', 'no-store');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('X-Frame-Options', 'DENY');
  reply.header(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
}

/** The start of a page's layout up to its title: a phone-sized viewport, kept out of search engines. */
export const PAGE_HEAD = `<!doctype html>
<html lang="<%= it.lang %>">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">`;

/** The first rules of a page's style sheet: the bank's font and colours. */
export const PAGE_BASE_STYLE = `:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; background: #f3f5f7; color: #1b2530; line-height: 1.45; }`;
