import { type JsonWebKey, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, errors } from 'oidc-provider';
import { DEFAULT_CUSTOMERS } from '../../src/sandbox/default-data-set.js';

/** The bank's API as the provider's resource server (RFC 8707): the access token's audience. */
const BANK_API = 'https://bank.example/psd2';

/** The acr values the test provider knows: a weak log-in and BankID's strongest, as PSU_OIDC_ACR_VALUES names it. */
export const ACR_LOW = 'urn:test:loa:low';
export const ACR_HIGH = 'urn:bankid:bid;LOA=4';

/** The default data set's people, by their key in DEFAULT_CUSTOMERS; `nameless` logs in with no identity claim. */
export type TestIdpAccount = keyof typeof DEFAULT_CUSTOMERS | 'nameless' | 'stranger';

/** A national identity number the default data set has no customer with. */
export const STRANGER_NIN = '01010150007';

/**
 * What the provider does wrong on demand, to see the bank refuse it: an ID token unsigned
 * (`alg: none`), for another client, with another nonce, or signed by a key it does not publish;
 * authorization_details in the token response changed; or the token endpoint not answering.
 */
export interface TestIdpFaults {
  idToken?: 'alg-none' | 'wrong-audience' | 'wrong-nonce' | 'unpublished-key';
  authorizationDetails?: (details: unknown[]) => unknown[];
  /** The token endpoint holds the request until the provider closes: the bank's timeout ends it. */
  tokenEndpointHangs?: boolean;
}

export interface TestIdpOptions {
  /** The bank's callback address (PUBLIC_URL/sca/oidc/callback). */
  redirectUri: string;
  /** Offer pushed authorization requests (default true); without, the request passes the browser. */
  par?: boolean;
  /** Port to listen on (default 0, a free one). */
  port?: number;
  /** The bank's client secret (default: a new random one). */
  clientSecret?: string;
  /** Public keys (JWK) of a second client, `keyClientId`, that authenticates with private_key_jwt. */
  clientPublicKeys?: JsonWebKey[];
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  /** The client that authenticates with private_key_jwt (with `clientPublicKeys`). */
  keyClientId: string;
  clientSecret: string;
  /** Set per test; cleared by `reset`. */
  faults: TestIdpFaults;
  /** The authorization_details of the last authorization request, as the provider received them. */
  lastAuthorizationDetails: unknown;
  /** The other parameters of the last authorization request (pushed or not), as the provider received them. */
  lastAuthorizationParameters: Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (panva's oidc-provider) on 127.0.0.1 for the tests and `npm run
 * idp`: PKCE (S256) required, pushed authorization requests, rich authorization requests with the
 * payment_initiation and account_information types, and accounts for the default data set's
 * customers whose `nin` claim is their customer number. Its interaction has no UI: the browser
 * (a test, or a person) opens `/interaction/{uid}?account=ola&acr=…`, which logs that account in
 * and grants what was asked; `deny=1` is the PSU pressing cancel.
 */
export async function startTestIdp(options: TestIdpOptions): Promise<TestIdp> {
  const clientId = 'psd2-bank';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...signing.privateKey.export({ format: 'jwk' }), kid: 'test-idp-1', use: 'sig', alg: 'RS256' };
  const state: {
    faults: TestIdpFaults;
    lastAuthorizationDetails: unknown;
    lastAuthorizationParameters: Record<string, unknown>;
  } = {
    faults: {},
    lastAuthorizationDetails: undefined,
    lastAuthorizationParameters: {},
  };
  const hanging = new Set<ServerResponse>();

  let provider: Provider | undefined;
  const server: Server = createServer((req, res) => {
    if (provider === undefined) return void res.writeHead(503).end();
    if (req.url?.startsWith('/interaction/')) return void interact(provider, req, res);
    if (state.faults.tokenEndpointHangs === true && req.url?.startsWith('/token')) return void hanging.add(res);
    provider.callback()(req, res);
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        authorization_details_types: ['payment_initiation', 'account_information'],
      },
      ...(options.clientPublicKeys === undefined
        ? []
        : [
            {
              client_id: `${clientId}-key`,
              redirect_uris: [options.redirectUri],
              grant_types: ['authorization_code'],
              response_types: ['code' as const],
              token_endpoint_auth_method: 'private_key_jwt' as const,
              jwks: { keys: options.clientPublicKeys as never[] },
              authorization_details_types: ['payment_initiation', 'account_information'],
            },
          ]),
    ],
    jwks: { keys: [jwk as never] },
    pkce: { required: () => true },
    acrValues: [ACR_LOW, ACR_HIGH],
    claims: { openid: ['sub', 'nin', 'name'] },
    // The identity claim in the ID token itself, as BankID's brokers put it there.
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => claimsOf(id as TestIdpAccount),
    }),
    features: {
      devInteractions: { enabled: false },
      claimsParameter: { enabled: true },
      pushedAuthorizationRequests: { enabled: options.par ?? true },
      // Rich authorization requests need an API the access token is for: the bank's, which the test never calls.
      resourceIndicators: {
        enabled: true,
        defaultResource: () => BANK_API,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: 'payments', audience: BANK_API, accessTokenFormat: 'opaque' }),
      },
      richAuthorizationRequests: {
        enabled: true,
        ack: 'experimental-01',
        types: {
          payment_initiation: { validate: validatePaymentInitiation },
          account_information: { validate: validateAccountInformation },
        },
        rarForAuthorizationCode: (ctx: { oidc: { grant?: { rar?: unknown[] } } }) => ctx.oidc.grant?.rar,
        rarForCodeResponse: (ctx: { oidc: { authorizationCode?: { rar?: unknown[] } } }) => {
          const details = ctx.oidc.authorizationCode?.rar;
          const tamper = state.faults.authorizationDetails;
          return details === undefined || tamper === undefined ? details : tamper(structuredClone(details));
        },
        rarForRefreshTokenResponse: () => undefined,
        rarForIntrospectionResponse: (_ctx: unknown, token: { rar?: unknown[] }) => token.rar,
      },
    } as Configuration['features'],
  };
  provider = new Provider(issuer, configuration);
  provider.on('authorization.accepted', (ctx) => {
    state.lastAuthorizationParameters = { ...(ctx.oidc.params ?? {}) };
    state.lastAuthorizationDetails =
      ctx.oidc.params?.authorization_details === undefined
        ? undefined
        : JSON.parse(String(ctx.oidc.params.authorization_details));
  });
  patchIdTokens(provider, state, forger.privateKey);

  return {
    issuer,
    clientId,
    keyClientId: `${clientId}-key`,
    clientSecret,
    get faults() {
      return state.faults;
    },
    set faults(faults: TestIdpFaults) {
      state.faults = faults;
    },
    get lastAuthorizationDetails() {
      return state.lastAuthorizationDetails;
    },
    get lastAuthorizationParameters() {
      return state.lastAuthorizationParameters;
    },
    reset: () => {
      state.faults = {};
      state.lastAuthorizationDetails = undefined;
      state.lastAuthorizationParameters = {};
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function claimsOf(account: TestIdpAccount): { sub: string; [claim: string]: unknown } {
  if (account === 'nameless') return { sub: account };
  if (account === 'stranger') return { sub: account, nin: STRANGER_NIN, name: 'Ukjent Person' };
  const customer = DEFAULT_CUSTOMERS[account];
  return { sub: account, nin: customer.customerNumber, name: customer.name };
}

/** Logs the chosen account in with the chosen acr and grants what the request asked, or denies. */
async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const query = new URL(req.url ?? '/', 'http://idp').searchParams;
    const details = await provider.interactionDetails(req, res);
    if (query.get('deny') === '1') {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'cancelled' });
      return;
    }
    const account = query.get('account');
    // A person (`npm run idp`) picks whom to log in as; a test names the account in the address.
    if (account === null) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(chooser());
    const params = details.params as Record<string, string | undefined>;
    const grant = new provider.Grant({ accountId: account, clientId: params.client_id! });
    grant.addOIDCScope(params.scope ?? 'openid');
    grant.addResourceScope(BANK_API, 'payments');
    if (params.claims !== undefined) {
      const requested = JSON.parse(params.claims) as { id_token?: Record<string, unknown> };
      grant.addOIDCClaims(Object.keys(requested.id_token ?? {}));
    }
    // addRar is in oidc-provider 8 but not in its types.
    const rar = grant as unknown as { addRar(detail: unknown): void };
    if (params.authorization_details !== undefined)
      for (const detail of JSON.parse(params.authorization_details) as unknown[]) rar.addRar(detail);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, {
      login: { accountId: account, acr: query.get('acr') ?? ACR_HIGH },
      consent: { grantId },
    });
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
  }
}

/** The error of a refused authorization_details (in oidc-provider 8 but not in its types). */
const InvalidAuthorizationDetails = (errors as unknown as Record<string, new (description: string) => Error>)
  .InvalidAuthorizationDetails!;

/** The interaction page of `npm run idp`: one link per account and acr, and a cancel. */
function chooser(): string {
  const links = Object.entries(DEFAULT_CUSTOMERS).flatMap(([key, c]) =>
    [ACR_HIGH, ACR_LOW].map(
      (acr) => `<li><a href="?account=${key}&amp;acr=${encodeURIComponent(acr)}">${c.name} (${acr})</a></li>`,
    ),
  );
  return `<!doctype html><meta charset="utf-8"><title>Test identity provider</title><h1>Log in as</h1><ul>${links.join('')}<li><a href="?account=nameless">No identity number</a></li><li><a href="?deny=1">Cancel</a></li></ul>`;
}

function validatePaymentInitiation(_ctx: unknown, detail: Record<string, unknown>): void {
  const amount = detail.instructedAmount as { amount?: unknown; currency?: unknown } | undefined;
  const fits =
    (amount !== undefined && typeof amount.amount === 'string' && typeof amount.currency === 'string') ||
    Array.isArray(detail.instructedAmounts);
  if (!fits) throw new InvalidAuthorizationDetails('payment_initiation needs instructedAmount');
}

function validateAccountInformation(_ctx: unknown, detail: Record<string, unknown>): void {
  if (typeof detail.access !== 'object' || detail.access === null)
    throw new InvalidAuthorizationDetails('account_information needs access');
}

/**
 * The faults of the ID token. `alg: none` and another key are made from the token the provider
 * signed: its header and payload, unsigned or signed by a key the provider never published.
 */
function patchIdTokens(
  provider: Provider,
  state: { faults: TestIdpFaults },
  forgerKey: ReturnType<typeof generateKeyPairSync>['privateKey'],
): void {
  const IdToken = provider.IdToken as unknown as {
    prototype: {
      issue(this: IdTokenInstance, options: unknown): Promise<string>;
    };
  };
  interface IdTokenInstance {
    client: { clientId: string; idTokenSignedResponseAlg: string };
    payload(): Promise<Record<string, unknown>>;
    set(key: string, value: unknown): void;
  }
  const issue = IdToken.prototype.issue;
  IdToken.prototype.issue = async function (this: IdTokenInstance, options: unknown) {
    const fault = state.faults.idToken;
    if (fault === 'wrong-nonce') this.set('nonce', 'a-nonce-of-another-log-in');
    if (fault === 'wrong-audience') {
      const payload = await this.payload();
      const client = this.client;
      this.payload = async () => payload;
      this.client = { clientId: 'another-client', idTokenSignedResponseAlg: client.idTokenSignedResponseAlg };
    }
    const token = await issue.call(this, options);
    const [header, payload] = token.split('.');
    if (fault === 'alg-none') {
      const unsigned = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
      return `${unsigned}.${payload}.`;
    }
    if (fault === 'unpublished-key') {
      const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(forgerKey).toString('base64url');
      return `${header}.${payload}.${signature}`;
    }
    return token;
  };
}
