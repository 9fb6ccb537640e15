/** Headers the sandbox's /docs page sets on each request as it signs it; its form does not ask for them. */
const SET_BY_THE_PAGE = new Set(['x-request-id', 'date', 'digest', 'tpp-signature-certificate', 'signature']);

interface Operation {
  parameters?: { in?: string; name?: string }[];
  security?: unknown;
  [key: string]: unknown;
}

/**
 * The document as the sandbox's /docs page shows it (a copy: /v1/openapi.json is unchanged): no form
 * field for the headers the page sets, no security requirement to fill in, and a word on how it signs.
 */
export function withoutSignatureHeaders(document: Record<string, unknown>): Record<string, unknown> {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      if (typeof operation !== 'object' || operation === null) continue;
      if (Array.isArray(operation.parameters))
        operation.parameters = operation.parameters.filter(
          (p) => p.in !== 'header' || !SET_BY_THE_PAGE.has(String(p.name).toLowerCase()),
        );
      delete operation.security;
    }
  }
  const info = (document.info ?? {}) as { description?: string };
  info.description = `${info.description ?? ''}\n\n**Try it out** in this sandbox: the page gets a TPP certificate from the sandbox and signs every request in the browser (X-Request-ID, Digest, TPP-Signature-Certificate, Signature), so those headers are not asked for. An answer's \`scaRedirect\` link opens the bank's page, where the PSU signs (customer 13039319955, code 123456).`;
  return document;
}
