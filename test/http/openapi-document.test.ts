import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { RouteOptions } from 'fastify';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The OpenAPI document as tools take it: stable operationIds, the signature scheme, the signature
 * headers of every signed operation, Redocly's lint without an error, and a TypeScript client
 * generated from it that compiles and names its calls after the operationIds.
 */
const run = promisify(execFile);
/** The tools run offline: no telemetry, no update check. */
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' };

interface Operation {
  operationId?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  security?: Record<string, string[]>[];
}
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

let t: TestApp;
let document: Document;
let dir: string;
let file: string;

before(async () => {
  t = await startTestApp();
  document = t.app.swagger() as unknown as Document;
  dir = mkdtempSync(join(tmpdir(), 'psd2-openapi-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function operations(): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** The documented routes as added, by method and OpenAPI path. */
function documentedRoutes(): Map<string, RouteOptions> {
  const routes = new Map<string, RouteOptions>();
  for (const route of t.routes) {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    for (const method of [route.method].flat()) routes.set(`${String(method)} ${path}`, route);
  }
  return routes;
}

describe('the OpenAPI document for tools', () => {
  it('gives every operation a unique operationId, with Berlin Group names where it has them', () => {
    const all = operations();
    const missing = all.filter((o) => o.operation.operationId === undefined).map((o) => `${o.method} ${o.path}`);
    assert.deepEqual(missing, [], 'operations without an operationId (name them in src/http/schemas/operation-ids.ts)');
    const ids = all.map((o) => o.operation.operationId!);
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    const idOf = (method: string, path: string) => document.paths[path]?.[method]?.operationId;
    assert.equal(idOf('post', '/v1/payments/sepa-credit-transfers'), 'initiatePaymentSepaCreditTransfers');
    assert.equal(
      idOf('get', '/v1/payments/sepa-credit-transfers/{paymentId}'),
      'getPaymentInformationSepaCreditTransfers',
    );
    assert.equal(idOf('get', '/v1/payments/{product}/{paymentId}/status'), 'getPaymentInitiationStatus');
    assert.equal(idOf('delete', '/v1/payments/{product}/{paymentId}'), 'cancelPayment');
    assert.equal(idOf('post', '/v1/payments/{product}/{paymentId}/authorisations'), 'startPaymentAuthorisation');
    assert.equal(idOf('get', '/v1/payments/{product}/{paymentId}/authorisations'), 'getPaymentInitiationAuthorisation');
    assert.equal(
      idOf('get', '/v1/payments/{product}/{paymentId}/authorisations/{authorisationId}'),
      'getPaymentInitiationScaStatus',
    );
    assert.equal(idOf('post', '/v1/bank-offered-consents'), 'createConsent');
    assert.equal(idOf('get', '/v1/accounts'), 'getAccountList');
    assert.equal(idOf('get', '/v1/accounts/{accountId}'), 'readAccountDetails');
    assert.equal(idOf('get', '/v1/accounts/{accountId}/balances'), 'getBalances');
    assert.equal(idOf('get', '/v1/accounts/{accountId}/transactions'), 'getTransactionList');
  });

  it('describes the signature under components.securitySchemes, required by exactly the signed operations', () => {
    const schemes = document.components.securitySchemes as Record<string, { name: string; description: string }>;
    assert.equal(schemes.tppSignature?.name, 'Signature');
    assert.match(schemes.tppSignature!.description, /rsa-sha256/);
    assert.equal(schemes.tppSignatureCertificate?.name, 'TPP-Signature-Certificate');
    const routes = documentedRoutes();
    for (const { method, path, operation } of operations()) {
      const signed = routes.get(`${method} ${path}`)?.config?.api?.auth != null;
      assert.deepEqual(
        operation.security,
        signed ? [{ tppSignature: [], tppSignatureCertificate: [] }] : [],
        `${method} ${path}`,
      );
    }
  });

  it('lists the signature headers of every signed operation, the sandbox clock and batch run included', () => {
    const routes = documentedRoutes();
    const schemes = document.components.securitySchemes as Record<string, { name: string }>;
    const lacking: string[] = [];
    for (const { method, path, operation } of operations()) {
      const auth = routes.get(`${method} ${path}`)?.config?.api?.auth;
      if (auth == null) continue;
      const required = (operation.parameters ?? []).filter((p) => p.in === 'header' && p.required === true);
      // The two headers of the signature are the security scheme's (OpenAPI lists an apiKey header there, not as a parameter).
      const bySecurity = Object.keys(operation.security?.[0] ?? {}).map((scheme) => schemes[scheme]!.name);
      const names = new Set([...required.map((p) => p.name), ...bySecurity].map((name) => name.toLowerCase()));
      const needed = [
        'x-request-id',
        'tpp-signature-certificate',
        'signature',
        ...(auth.digestRequired ? ['digest'] : []),
      ];
      for (const name of needed) if (!names.has(name)) lacking.push(`${method} ${path}: ${name}`);
    }
    assert.deepEqual(lacking, []);
    assert.ok(document.paths['/v1/sandbox/clock']?.post?.parameters?.some((p) => p.name === 'Digest'));
  });

  it('passes Redocly lint (its recommended rules, redocly.yaml) with 0 errors', { timeout: 120_000 }, async () => {
    const cli = resolve('node_modules/@redocly/cli/bin/cli.js');
    const output = await run(
      process.execPath,
      [cli, 'lint', file, '--format=json', `--config=${resolve('redocly.yaml')}`],
      { env: OFFLINE, maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(output.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const said = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    assert.equal(report.totals.errors, 0, said.join('\n'));
    assert.equal(report.totals.warnings, 0, said.join('\n'));
  });

  it(
    'generates a TypeScript client that compiles and names its calls after the operationIds',
    { timeout: 180_000 },
    async () => {
      const out = join(dir, 'client');
      const generator = resolve('node_modules/@hey-api/openapi-ts/bin/run.js');
      await run(process.execPath, [generator, '-i', file, '-o', out], { env: OFFLINE });
      // A TPP's code calling the generated client: it must type-check against it.
      writeFileSync(
        join(out, 'use.ts'),
        `import { getPaymentInitiationStatus, initiatePaymentNorwegianCrossBorderCreditTransfers } from './index.js';
export async function use(): Promise<string | undefined> {
  const created = await initiatePaymentNorwegianCrossBorderCreditTransfers({
    baseUrl: 'http://127.0.0.1:8080',
    headers: { 'X-Request-ID': '9f1c2f7e-6a0e-4a57-9d0a-1c2b3d4e5f60', 'TPP-Signature-Certificate': 'MIIB', Signature: 'keyId=...', Digest: 'SHA-256=...', 'TPP-Session-ID': 's', 'TPP-Redirect-URI': 'https://tpp.example/cb', 'PSU-IP-Address': '192.0.2.10', 'x-accept-fix': '' },
    body: { instructedAmount: { amount: '120000.00', currency: 'NOK' }, creditorName: 'Svenska Leverantör AB', creditorAgent: 'ESSESESSXXX', creditorAccount: { iban: 'SE4550000000058398257466', currency: 'SEK' }, debtorAccount: { bban: '15061012351', currency: 'NOK' }, remittanceInformationUnstructured: 'Invoice 117', regulatoryReportingCode: '14', regulatoryReportingInformation: 'Import of goods' },
  });
  const status = await getPaymentInitiationStatus({
    path: { product: 'norwegian-cross-border-credit-transfers', paymentId: created.data?.paymentId ?? '' },
    headers: { 'X-Request-ID': '9f1c2f7e-6a0e-4a57-9d0a-1c2b3d4e5f61', 'TPP-Signature-Certificate': 'MIIB', Signature: 'keyId=...' },
  });
  return status.data?.transactionStatus;
}
`,
      );
      writeFileSync(
        join(out, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2022', 'DOM'],
            types: [],
          },
          include: ['./**/*.ts'],
        }),
      );
      const tsc = resolve('node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', join(out, 'tsconfig.json')]).catch((error: { stdout: string }) => {
        assert.fail(`the generated client does not compile:\n${error.stdout}`);
      });
      const sdk = readFileSync(join(out, 'sdk.gen.ts'), 'utf8');
      const calls = [...sdk.matchAll(/^export const (\w+) =/gm)].map((m) => m[1]!).sort();
      const ids = operations()
        .map((o) => o.operation.operationId!)
        .sort();
      assert.deepEqual(calls, ids, 'one call per operation, named after its operationId');
    },
  );
});
