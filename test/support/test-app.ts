import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Mode } from '../../src/config/config.js';
import { type Clock, systemClock } from '../../src/domain/clock.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { buildApp } from '../../src/http/app.js';
import { PaymentInitiationService } from '../../src/services/payment-initiation-service.js';
import { TppAuthenticator } from '../../src/security/tpp-authenticator.js';
import { TrustStore } from '../../src/security/trust-store.js';
import { parseCertificate, readPemCertificates } from '../../src/security/tpp-certificate.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { type SignOptions, signRequest } from '../../src/toolkit/request-signer.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { type TppFixtures, tppFixtures } from './tpp-fixtures.js';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  fixtures: TppFixtures;
  /** Sends a request signed as TPP `as` (the default test TPP). */
  signed(request: SignedInject): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface SignedInject {
  method: string;
  url: string;
  /** An object is sent as JSON; a string or Buffer is sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  as?: CertificateAndKey;
  sign?: Partial<SignOptions>;
  /** Changes the signed headers before sending, to test what the server does with them. */
  tamper?: (headers: Record<string, string>) => void;
}

export interface TestAppOptions {
  store?: Store;
  mode?: Mode;
  /** Registers extra routes before the app is ready. */
  routes?: (app: FastifyInstance) => void;
  logger?: Parameters<typeof buildApp>[0]['logger'];
  clock?: Clock;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const fixtures = await tppFixtures();
  let dir: string | undefined;
  let store = options.store;
  if (store === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'psd2-app-'));
    store = SqliteStore.open(join(dir, 'test.db'));
    await store.migrate();
  }
  const trustStore = new TrustStore([parseCertificate(readPemCertificates(fixtures.ca.certPem)[0]!)]);
  const clock = options.clock ?? systemClock;
  const app = await buildApp({
    config: { mode: options.mode ?? 'sandbox', logLevel: 'silent' },
    store,
    payments: new PaymentInitiationService(store, clock, new ReferenceRates(SANDBOX_REFERENCE_RATES)),
    authenticator: new TppAuthenticator({ trustStore, dateSkewSeconds: 300 }),
    logger: options.logger ?? false,
    checkSchemas: true,
  });
  options.routes?.(app);
  await app.ready();
  const ownedStore = store;
  return {
    app,
    store,
    fixtures,
    signed: (request) => {
      const body = request.body === undefined ? undefined : typeof request.body === 'string' || Buffer.isBuffer(request.body) ? request.body : JSON.stringify(request.body);
      const headers = signRequest({ method: request.method, url: request.url, body, headers: request.headers, credentials: request.as ?? fixtures.tpp, ...request.sign });
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      request.tamper?.(headers);
      return app.inject({ method: request.method as 'GET', url: request.url, headers, payload: body });
    },
    close: async () => {
      await app.close();
      if (options.store === undefined) await ownedStore.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The error body every error answer has. */
export function assertErrorBody(response: LightMyRequestResponse, status: number, code: string): ErrorBodyJson {
  const body = response.json() as ErrorBodyJson;
  if (response.statusCode !== status || body.code !== code || body.status !== status || typeof body.id !== 'string' || body.system !== 'psd2-pis') {
    throw new Error(`expected ${status} ${code} with an error body, got ${response.statusCode}: ${response.body}`);
  }
  return body;
}

export interface ErrorBodyJson {
  id: string;
  system: string;
  status: number;
  code: string;
  message?: string;
  tppMessages?: { category: string; code: string; path?: string; text?: string }[];
}
