import type { OpenApiDocument } from './tool-document.js';

/**
 * The create → approve → status flow each collection carries as its first folder, in the sandbox:
 * Ola Nordmann's domestic payment (the create operation's own example, which the default data set
 * takes as it is), whose links a script saves in collection variables; then the PSU approves on the
 * bank's page, which no collection runner can fill in (a person in a browser, or `tpp approve`); then
 * the status read, which answers ACTC.
 */
export const FLOW_FOLDER = 'Create, approve, status (sandbox)';
export const CREATE_REQUEST = '1 Create a domestic payment';
export const STATUS_REQUEST = '2 Read its status once the PSU approved';

const CREATE_PATH = '/v1/payments/norwegian-domestic-credit-transfers';

export const FLOW_DESCRIPTION = [
  'Run "1 Create a domestic payment": it saves the answer\'s _links.scaRedirect.href in {{scaRedirect}} and _links.status.href in {{statusLink}}.',
  'Approve as the PSU: open {{scaRedirect}} in a browser and log in as 13039319955 with the code 123456, or run `tpp approve "<link>" --customer 13039319955`.',
  'Run "2 Read its status once the PSU approved": ACTC.',
  'Every request goes to {{baseUrl}}, the signing proxy (`tpp proxy`), which signs it with your TPP certificate.',
].join('\n\n');

export interface FlowRequest {
  name: string;
  method: 'GET' | 'POST';
  /** With {{variables}}, as both tools write a URL. */
  url: string;
  headers: [string, string][];
  body?: string;
}

export function flowRequests(document: OpenApiDocument): { create: FlowRequest; status: FlowRequest } {
  const body = (
    document.paths[CREATE_PATH]?.post as
      { requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> } } | undefined
  )?.requestBody?.content?.['application/json']?.examples?.request?.value;
  if (body === undefined) throw new Error(`the OpenAPI document has no example request of POST ${CREATE_PATH}`);
  return {
    create: {
      name: CREATE_REQUEST,
      method: 'POST',
      // The same example payment again within 24 hours would be a logical duplicate (409).
      url: `{{baseUrl}}${CREATE_PATH}?allowLogicalDuplicate=true`,
      headers: [
        ['Content-Type', 'application/json'],
        ['X-PSU-IDENTITY', '{{psuIdentity}}'],
        ['PSU-Context', '{{psuContext}}'],
        ['PSU-IP-Address', '{{psuIpAddress}}'],
        ['TPP-Session-ID', '{{tppSessionId}}'],
        ['TPP-Redirect-URI', '{{tppRedirectUri}}'],
      ],
      body: JSON.stringify(body, null, 2),
    },
    status: { name: STATUS_REQUEST, method: 'GET', url: '{{baseUrl}}{{statusLink}}', headers: [] },
  };
}
