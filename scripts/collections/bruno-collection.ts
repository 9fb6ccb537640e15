import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type FlowRequest, FLOW_DESCRIPTION, FLOW_FOLDER, flowRequests } from './payment-flow.js';
import { COLLECTION_VARIABLES, type OpenApiDocument, namesVariable } from './tool-document.js';

/** The parts of a Bruno collection (its JSON form, as @usebruno/converters makes it) this file reads or writes. */
export interface BrunoCollection {
  name: string;
  items: BrunoItem[];
  environments?: unknown[];
  root?: { request?: Record<string, unknown>; docs?: string; [key: string]: unknown };
  [key: string]: unknown;
}
interface BrunoItem {
  name: string;
  type: string;
  items?: BrunoItem[];
  request?: { headers?: { name: string; value: string; enabled: boolean }[]; [key: string]: unknown };
  examples?: { response?: { status?: number } }[];
  [key: string]: unknown;
}

// Neither package has type declarations; the CLI's writer of a collection folder is the one `bru import` uses.
const require = createRequire(import.meta.url);
const { openApiToBruno } = require('@usebruno/converters') as {
  openApiToBruno(document: unknown, options: { groupBy: 'tags' | 'path' }): BrunoCollection;
};
const { createCollectionFromBrunoObject } = require('@usebruno/cli/src/utils/collection.js') as {
  createCollectionFromBrunoObject(collection: BrunoCollection, dir: string, options: { format: 'bru' }): Promise<void>;
};

/**
 * A Bruno collection of every operation of the tool document (tool-document.ts), by Bruno's own
 * converter, grouped by tag with each operation's example; and the create → approve → status flow
 * (payment-flow.ts) as its first folder. The variables are the collection's own rather than an
 * environment's, so that it runs as opened, with no environment to choose.
 */
export function brunoCollection(document: OpenApiDocument): BrunoCollection {
  const converted = openApiToBruno(document, { groupBy: 'tags' });
  for (const item of requestsOf(converted.items)) {
    for (const header of item.request?.headers ?? []) if (namesVariable(header.value)) header.enabled = true;
    // The error answers are the same few on every operation (docs/errors.md has them): with them the
    // collection is seven times the examples, and `bru run` reads it for 40 s rather than 10.
    item.examples = item.examples?.filter((example) => (example.response?.status ?? 0) < 400);
  }
  const { create, status } = flowRequests(document);
  const flow: BrunoItem = {
    uid: uid(),
    name: FLOW_FOLDER,
    type: 'folder',
    seq: 1,
    root: { docs: FLOW_DESCRIPTION, meta: { name: FLOW_FOLDER, seq: 1 }, request: { auth: { mode: 'inherit' } } },
    items: [
      brunoRequest(
        create,
        1,
        [
          "bru.setVar('scaRedirect', res.body._links.scaRedirect.href);",
          "bru.setVar('statusLink', res.body._links.status.href);",
          "console.log('the PSU approves at ' + res.body._links.scaRedirect.href);",
        ],
        [
          "test('the payment is created (201)', () => expect(res.status).to.equal(201));",
          "test('its links are saved', () => expect(bru.getVar('statusLink')).to.match(/^\\/v1\\//));",
        ],
      ),
      brunoRequest(
        status,
        2,
        [],
        ["test('the PSU approved it (ACTC)', () => expect(res.body.transactionStatus).to.equal('ACTC'));"],
      ),
    ],
  };
  const vars = Object.entries(COLLECTION_VARIABLES).map(([name, value]) => ({
    uid: uid(),
    name,
    value,
    enabled: true,
  }));
  return {
    ...converted,
    environments: [],
    root: { ...converted.root, request: { ...converted.root?.request, vars: { req: vars, res: [] } } },
    items: [flow, ...converted.items],
  };
}

/** Writes the collection as Bruno's folder of .bru files (what Bruno's "Open Collection" and `bru run` take). */
export async function writeBrunoCollection(collection: BrunoCollection, dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await createCollectionFromBrunoObject(collection, dir, { format: 'bru' });
}

function brunoRequest(request: FlowRequest, seq: number, script: string[], tests: string[]): BrunoItem {
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  return {
    uid: uid(),
    name: request.name,
    type: 'http-request',
    seq,
    request: {
      url: request.url,
      method: request.method,
      headers: request.headers.map(([name, value]) => ({ uid: uid(), name, value, enabled: true })),
      params: [...query].map(([name, value]) => ({ uid: uid(), name, value, enabled: true, type: 'query' })),
      body:
        request.body === undefined
          ? { mode: 'none' }
          : { mode: 'json', json: request.body, formUrlEncoded: [], multipartForm: [] },
      auth: { mode: 'inherit' },
      script: { res: script.join('\n') },
      tests: tests.join('\n'),
      vars: { req: [], res: [] },
      assertions: [],
    },
  };
}

function uid(): string {
  return randomUUID().replaceAll('-', '').slice(0, 21);
}

function requestsOf(items: BrunoItem[]): BrunoItem[] {
  return items.flatMap((item) => (item.items === undefined ? [item] : requestsOf(item.items)));
}
