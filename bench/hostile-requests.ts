import { randomUUID } from 'node:crypto';
import {
  BODY_LIMIT_BYTES,
  JSON_MAX_ARRAY_ENTRIES,
  RESOURCE_BODY_LIMIT_BYTES,
  JSON_MAX_OBJECT_KEYS,
  JSON_MAX_STRING_LENGTH,
  JSON_MAX_VALUES,
} from '../src/domain/limits.js';
import { bulkEntrySchema, crossBorderBodySchema } from '../src/http/schemas/payment-schemas.js';
import { sandboxAccountCreateSchema } from '../src/http/schemas/sandbox/sandbox-account-schemas.js';
import { sandboxTransactionCreateSchema } from '../src/http/schemas/sandbox/sandbox-account-transaction-schemas.js';
import { sandboxAgreementCreateSchema } from '../src/http/schemas/sandbox/sandbox-agreement-schemas.js';
import { sandboxCardAccountCreateSchema } from '../src/http/schemas/sandbox/sandbox-card-account-schemas.js';
import { sandboxCardTransactionCreateSchema } from '../src/http/schemas/sandbox/sandbox-card-transaction-schemas.js';
import { sandboxCustomerCreateSchema } from '../src/http/schemas/sandbox/sandbox-customer-schemas.js';
import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import { signRequest } from '../src/toolkit/request-signer.js';
import { nextBban, nextFnr } from '../test/support/norwegian-numbers.js';
import { BULK_PATH, CREATE_PATH } from './requests.js';
import { sandboxCall } from './sandbox-call.js';

/**
 * The hostile bodies of bench/hostile-bodies.ts: each route that takes a body, a body of each hostile
 * shape built for it at its size limit, and those bodies as signed requests.
 */

export interface Route {
  name: string;
  path: string;
  /** The body as a function of the hostile entry maker: where the entries go. */
  wrap: (entries: unknown[]) => unknown;
  /** The entry schema's field names (bad values go there). */
  fields: readonly string[];
  /** The top-level object itself is the one "entry" (no array of entries). */
  single: boolean;
  /** The operation's body size limit, bytes (a list route's, or one resource's). */
  limitBytes: number;
}

const names = (schema: { properties: object }) => Object.keys(schema.properties);

/** Every route that takes a body; the transaction routes post to this account and this card account. */
export function routes(accountId: string, cardAccountId: string): Route[] {
  return [...paymentRoutes(), ...sandboxRoutes(accountId, cardAccountId)];
}

/** The payment routes: a single payment, a bulk, a signing basket. */
function paymentRoutes(): Route[] {
  return [
    {
      name: 'Cross-border create',
      path: CREATE_PATH,
      wrap: (e) => e[0],
      fields: names(crossBorderBodySchema),
      single: true,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Bulk create',
      path: BULK_PATH,
      wrap: (e) => ({ debtorAccount: true, payments: e }),
      fields: names(bulkEntrySchema),
      single: false,
      limitBytes: BODY_LIMIT_BYTES,
    },
    {
      name: 'Signing basket create',
      path: '/v1/signing-baskets',
      wrap: (e) => ({ paymentIds: e }),
      fields: [],
      single: false,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
  ];
}

/** The sandbox's routes that make test data. */
function sandboxRoutes(accountId: string, cardAccountId: string): Route[] {
  return [
    {
      name: 'Sandbox customer create',
      path: '/v1/sandbox/customers',
      wrap: (e) => e[0],
      fields: names(sandboxCustomerCreateSchema),
      single: true,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox account create',
      path: '/v1/sandbox/accounts',
      wrap: (e) => ({ customerNumber: true, balances: e }),
      fields: names(sandboxAccountCreateSchema),
      single: false,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox card account create',
      path: '/v1/sandbox/card-accounts',
      wrap: (e) => ({ customerNumber: true, balances: e }),
      fields: names(sandboxCardAccountCreateSchema),
      single: false,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox agreement create',
      path: '/v1/sandbox/agreements',
      wrap: (e) => ({ owner: true, engagements: e }),
      fields: names(sandboxAgreementCreateSchema),
      single: false,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox account transactions',
      path: `/v1/sandbox/accounts/${accountId}/transactions`,
      wrap: (e) => e,
      fields: names(sandboxTransactionCreateSchema),
      single: false,
      limitBytes: BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox card transactions',
      path: `/v1/sandbox/card-accounts/${cardAccountId}/transactions`,
      wrap: (e) => e,
      fields: names(sandboxCardTransactionCreateSchema),
      single: false,
      limitBytes: BODY_LIMIT_BYTES,
    },
  ];
}

/** The body's JSON, entries added while it stays under the size limit and the array limit. */
function filled(route: Route, entry: (i: number) => unknown): string {
  if (route.single) return JSON.stringify(route.wrap([entry(0)]));
  const entries: unknown[] = [];
  let size = Buffer.byteLength(JSON.stringify(route.wrap([])));
  for (let i = 0; i < JSON_MAX_ARRAY_ENTRIES; i++) {
    const next = entry(i);
    const grown = Buffer.byteLength(JSON.stringify(next)) + 1;
    if (size + grown > route.limitBytes - 1024) break;
    entries.push(next);
    size += grown;
  }
  return JSON.stringify(route.wrap(entries));
}

/** An object of JSON_MAX_OBJECT_KEYS fields: every field of the entry with `value`, the rest unknown fields. */
function wideEntry(fields: readonly string[], value: (field: string) => unknown): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const field of fields.slice(0, JSON_MAX_OBJECT_KEYS)) entry[field] = value(field);
  for (let k = 0; Object.keys(entry).length < JSON_MAX_OBJECT_KEYS; k++) entry[`unknown${k}`] = value(`unknown${k}`);
  return entry;
}
/** The hostile bodies of a route, by the name of their shape. */
export function shapes(route: Route): Record<string, string> {
  const longText = 'x'.repeat(JSON_MAX_STRING_LENGTH);
  const longNonAscii = 'ø'.repeat(JSON_MAX_STRING_LENGTH);
  // Values: as many as the limit allows (less the wrapping), as arrays of JSON_MAX_ARRAY_ENTRIES zeros.
  const row = Array.from({ length: JSON_MAX_ARRAY_ENTRIES - 1 }, () => 0);
  // As many rows as the value limit and the route's size limit allow.
  const rowBytes = JSON.stringify(row).length + 1;
  const rows = Math.min(
    Math.floor((JSON_MAX_VALUES - 100) / JSON_MAX_ARRAY_ENTRIES) - 1,
    Math.floor((route.limitBytes - 2048) / rowBytes),
  );
  const manyValues = Array.from({ length: rows }, () => row);
  const bad = route.single ? wideEntry(route.fields, () => true) : undefined;
  const oneLongString = JSON.stringify({ padding: 'y'.repeat(route.limitBytes - 200) });
  const duplicateAtEnd = `{"padding":0,${' '.repeat(route.limitBytes - 200)}"padding":0}`;
  return {
    'most errors (wrong types, unknown fields)': filled(route, () =>
      route.fields.length === 0 ? true : wideEntry(route.fields, () => true),
    ),
    'longest strings': filled(route, () =>
      route.fields.length === 0 ? longText : wideEntry(route.fields, () => longText),
    ),
    // Few long strings per entry, so the most entries (and problems) fit: found by hand, 2 694 problems in a bulk.
    'long strings in the most entries': filled(route, () =>
      route.fields.length === 0
        ? longText
        : Object.fromEntries(route.fields.slice(0, 5).map((field) => [field, longText])),
    ),
    // Two bytes a character: the most decoding work per byte (UTF-8 to a two-byte string).
    'longest strings of non-ASCII': filled(route, () =>
      route.fields.length === 0 ? longNonAscii : wideEntry(route.fields, () => longNonAscii),
    ),
    'most values': route.single
      ? JSON.stringify({ ...bad, [route.fields[0] ?? 'x']: manyValues })
      : JSON.stringify(route.wrap(manyValues)),
    'one string at the size limit': oneLongString,
    'a duplicate field after the size limit of spaces': duplicateAtEnd,
    'nested 5 000 deep': `${'['.repeat(5000)}${']'.repeat(5000)}`,
  };
}

/** A signed POST of a hostile body. */
export interface Prepared {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The body as the TPP's signed POST to the path, with the headers a create needs. */
export function prepare(credentials: CertificateAndKey, path: string, body: string): Prepared {
  const headers = signRequest({
    method: 'POST',
    url: path,
    credentials,
    body,
    headers: {
      'content-type': 'application/json',
      'PSU-Context': 'PRIVATE',
      'PSU-IP-Address': '192.0.2.10',
      'TPP-Redirect-URI': 'https://tpp.example/cb',
      'TPP-Session-ID': randomUUID(),
      'X-PSU-IDENTITY': '01078900497',
    },
  });
  return { path, headers, body };
}

/** Sends a prepared request: its answer's status, and the time to its last byte. */
export async function post(url: string, request: Prepared): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const answer = await fetch(`${url}${request.path}`, { method: 'POST', headers: request.headers, body: request.body });
  await answer.text();
  return { status: answer.status, ms: performance.now() - started };
}

/**
 * One route's shape as a signed request, for `profile.js hostile <route> <shape>`: the account and card
 * account the transaction routes name are made first.
 */
export async function hostileRequest(
  url: string,
  credentials: CertificateAndKey,
  routeName: string,
  shapeName: string,
): Promise<Prepared> {
  const { accountId, cardAccountId } = await accounts(url, credentials);
  const route = routes(accountId, cardAccountId).find((r) => r.name === routeName);
  const body = route === undefined ? undefined : shapes(route)[shapeName];
  if (route === undefined || body === undefined) throw new Error(`no route "${routeName}" with a shape "${shapeName}"`);
  return prepare(credentials, route.path, body);
}

/** Sets up an account and a card account of the bench TPP (the transaction routes need one that exists). */
export async function accounts(
  url: string,
  credentials: CertificateAndKey,
): Promise<{ accountId: string; cardAccountId: string }> {
  const customerNumber = nextFnr();
  await sandboxCall(url, credentials, 'POST', '/v1/sandbox/customers', 201, {
    customerNumber,
    name: 'Bench Kunde',
    type: 'private',
  });
  const account = await sandboxCall<{ id: string }>(url, credentials, 'POST', '/v1/sandbox/accounts', 201, {
    customerNumber,
    accountName: 'Brukskonto',
    bban: nextBban(),
    currency: 'NOK',
    product: 'Brukskonto',
    cashAccountType: 'CACC',
  });
  const card = await sandboxCall<{ id: string }>(url, credentials, 'POST', '/v1/sandbox/card-accounts', 201, {
    customerNumber,
    maskedPan: '525412******3241',
    name: 'Kortkonto',
    product: 'Visa',
    currency: 'NOK',
  });
  return { accountId: account.id, cardAccountId: card.id };
}
