import { convertV2 } from 'openapi-to-postmanv2';
import { type FlowRequest, FLOW_DESCRIPTION, FLOW_FOLDER, flowRequests } from './payment-flow.js';
import { COLLECTION_VARIABLES, type OpenApiDocument, namesVariable } from './tool-document.js';

/** The parts of a Postman collection v2.1 (schema.getpostman.com) this file reads or writes. */
export interface PostmanCollection {
  info: { name: string; schema: string; [key: string]: unknown };
  item: PostmanItem[];
  variable?: { key: string; value: string; type?: string }[];
  [key: string]: unknown;
}
interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { header?: { key: string; value: string; disabled?: boolean }[]; [key: string]: unknown };
  response?: { code?: number }[];
  [key: string]: unknown;
}

/**
 * A Postman collection v2.1 of every operation of the tool document (tool-document.ts), by
 * openapi-to-postmanv2, Postman's own converter, grouped by tag with each operation's example; and
 * the create → approve → status flow (payment-flow.ts) as its first folder.
 */
export async function postmanCollection(document: OpenApiDocument): Promise<PostmanCollection> {
  const converted = await new Promise<PostmanCollection>((resolve, reject) =>
    convertV2(
      { type: 'json', data: document },
      // Examples rather than values made up from the schemas; optional parameters listed but not sent.
      { folderStrategy: 'Tags', parametersResolution: 'Example', enableOptionalParameters: false },
      (error, result) => {
        const output = result?.output?.[0]?.data as PostmanCollection | undefined;
        if (error !== null || result?.result !== true || output === undefined)
          reject(new Error(`openapi-to-postmanv2: ${error?.message ?? result?.reason ?? 'no collection'}`));
        else resolve(output);
      },
    ),
  );
  for (const item of requestsOf(converted.item)) {
    for (const header of item.request?.header ?? []) if (namesVariable(header.value)) header.disabled = false;
    // The error answers are the same few on every operation (docs/errors.md has them), and would be
    // most of the collection's size.
    item.response = item.response?.filter((example) => (example.code ?? 0) < 400);
  }
  const { create, status } = flowRequests(document);
  return {
    ...converted,
    item: [
      {
        name: FLOW_FOLDER,
        description: FLOW_DESCRIPTION,
        item: [
          postmanRequest(create, [
            "pm.test('the payment is created (201)', () => pm.response.to.have.status(201));",
            'const links = pm.response.json()._links;',
            "pm.collectionVariables.set('scaRedirect', links.scaRedirect.href);",
            "pm.collectionVariables.set('statusLink', links.status.href);",
            "console.log('the PSU approves at ' + links.scaRedirect.href);",
          ]),
          postmanRequest(status, [
            "pm.test('the PSU approved it (ACTC)', () => pm.expect(pm.response.json().transactionStatus).to.equal('ACTC'));",
          ]),
        ],
      },
      ...converted.item,
    ],
    variable: Object.entries(COLLECTION_VARIABLES).map(([key, value]) => ({ key, value, type: 'string' })),
  };
}

function postmanRequest(request: FlowRequest, test: string[]): PostmanItem {
  return {
    name: request.name,
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: test } }],
    request: {
      method: request.method,
      header: request.headers.map(([key, value]) => ({ key, value })),
      url: request.url,
      ...(request.body === undefined
        ? {}
        : { body: { mode: 'raw', raw: request.body, options: { raw: { language: 'json' } } } }),
    },
  };
}

function requestsOf(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => (item.item === undefined ? [item] : requestsOf(item.item)));
}
