/**
 * The OpenAPI document as the collections take it (a copy; /v1/openapi.json is unchanged): one
 * server, the signing proxy, since Postman and Bruno cannot sign; no signature headers and no
 * security requirement, since the proxy makes them; and the PSU's headers naming collection
 * variables, so that the sandbox's default customer is filled in once for every operation.
 */

/** Where `tpp proxy` listens by default (src/toolkit/signing-proxy.ts, PROXY_DEFAULT_PORT). */
export const PROXY_BASE_URL = 'http://127.0.0.1:8731';

/** Headers the proxy sets on each request it signs (X-Request-ID only when the client sent none). */
const MADE_BY_THE_PROXY = new Set(['x-request-id', 'date', 'digest', 'signature', 'tpp-signature-certificate']);

/**
 * The collection variables, with the sandbox's default data set's PSU (Ola Nordmann, docs/sandbox.md)
 * and the links the flow saves; each header named here takes its variable as its value.
 */
export const COLLECTION_VARIABLES = {
  baseUrl: PROXY_BASE_URL,
  psuIdentity: '13039319955',
  psuContext: 'PRIVATE',
  psuIpAddress: '192.0.2.10',
  tppSessionId: 'session-1',
  tppRedirectUri: 'https://tpp.example/callback',
  scaRedirect: '',
  statusLink: '',
} as const;

export const HEADER_VARIABLES: Readonly<Record<string, keyof typeof COLLECTION_VARIABLES>> = {
  'x-psu-identity': 'psuIdentity',
  'psu-context': 'psuContext',
  'psu-ip-address': 'psuIpAddress',
  'tpp-session-id': 'tppSessionId',
  'tpp-redirect-uri': 'tppRedirectUri',
};

/** A header value that names a collection variable: the collections send such a header by default. */
export function namesVariable(value: unknown): boolean {
  return typeof value === 'string' && /^\{\{\w+\}\}$/.test(value);
}

interface Parameter {
  in?: string;
  name?: string;
  example?: unknown;
  [key: string]: unknown;
}

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, { parameters?: Parameter[]; [key: string]: unknown }>>;
};

export function toolDocument(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  copy.servers = [{ url: PROXY_BASE_URL, description: 'The signing proxy (tpp proxy), which signs for the bank' }];
  for (const operations of Object.values(copy.paths)) {
    for (const operation of Object.values(operations)) {
      delete operation.security;
      if (!Array.isArray(operation.parameters)) continue;
      operation.parameters = operation.parameters
        .filter((p) => p.in !== 'header' || !MADE_BY_THE_PROXY.has(String(p.name).toLowerCase()))
        .map((p) => {
          const variable = p.in === 'header' ? HEADER_VARIABLES[String(p.name).toLowerCase()] : undefined;
          // A plain string: the converters would offer an enumeration's values instead of the example.
          return variable === undefined ? p : { ...p, schema: { type: 'string' }, example: `{{${variable}}}` };
        });
    }
  }
  return copy;
}
