/** Headers the sandbox's /docs page sets on each request as it signs it; its form does not ask for them. */
const SET_BY_THE_PAGE = new Set(['x-request-id', 'date', 'digest', 'tpp-signature-certificate', 'signature']);

/**
 * What "Try it out" fills in, so that a create answers 201 with its scaRedirect as the form comes
 * (issue 41 §2): Ola Nordmann of the default data set, in a private context, from an address of the
 * documentation range (RFC 5737), returning to the reference after the SCA. x-accept-fix only where
 * an operation requires it (the cross-border product), with a published change.
 */
function tryItValues(publicUrl: string): Record<string, string> {
  return {
    'tpp-session-id': 'try-it-out',
    'tpp-redirect-uri': `${publicUrl}/docs/`,
    'psu-ip-address': '192.0.2.10',
    'psu-context': 'PRIVATE',
    'x-psu-identity': '13039319955',
  };
}
const REQUIRED_ACCEPT_FIX = 'longer-name';

interface Parameter {
  in?: string;
  name?: string;
  required?: boolean;
  example?: unknown;
}

interface Operation {
  parameters?: Parameter[];
  security?: unknown;
  [key: string]: unknown;
}

/**
 * The document as the sandbox's /docs page shows it (a copy: /v1/openapi.json is unchanged): no form
 * field for the headers the page sets, working values in the fields a create needs, no security
 * requirement to fill in, and a word on how it signs.
 */
export function forTryItOut(document: Record<string, unknown>, publicUrl: string): Record<string, unknown> {
  const values = tryItValues(publicUrl);
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      if (typeof operation !== 'object' || operation === null) continue;
      if (Array.isArray(operation.parameters))
        operation.parameters = operation.parameters
          .filter((p) => p.in !== 'header' || !SET_BY_THE_PAGE.has(String(p.name).toLowerCase()))
          .map((p) => (p.in === 'header' ? withValue(p, values) : p));
      delete operation.security;
    }
  }
  const info = (document.info ?? {}) as { description?: string };
  info.description = `${info.description ?? ''}\n\n**Try it out** in this sandbox: the page gets a TPP certificate from the sandbox and signs every request in the browser (X-Request-ID, Digest, TPP-Signature-Certificate, Signature), so those headers are not asked for; the others a create needs are filled in for Ola Nordmann. An answer's \`scaRedirect\` link opens the bank's page, where the PSU signs (customer 13039319955, code 123456). Opened from the link \`tpp docs\` prints, the page signs as your TPP, in the bank \`tpp\` and \`tpp console\` show.`;
  return document;
}

/** A header field filled in, as Swagger UI fills a field from its parameter's example. */
function withValue(parameter: Parameter, values: Record<string, string>): Parameter {
  const name = String(parameter.name).toLowerCase();
  const value =
    name === 'x-accept-fix' ? (parameter.required === true ? REQUIRED_ACCEPT_FIX : undefined) : values[name];
  return value === undefined ? parameter : { ...parameter, example: value };
}
