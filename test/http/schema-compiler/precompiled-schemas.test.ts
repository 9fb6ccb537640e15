import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NAME_MAX_LENGTH } from '../../../src/domain/limits/payments.js';
import { precompiledSchemas } from '../../../src/http/schema-compiler/precompiled.js';
import { INSTALL_MODULE, compileEveryRoute } from '../../../scripts/precompile-schemas.js';
import { createCrossBorder, crossBorderBody } from '../../support/payment-requests.js';
import { type TestApp, startTestApp } from '../../support/test-app.js';

/**
 * The validators and serializers the build compiled (src/http/schema-compiler/precompiled.ts): one for every
 * schema of every route in both modes, the code Ajv and fast-json-stringify make of it now, and the
 * server's app uses them, answering as code compiled at run time does. The build's generated module
 * (dist/generated/) installs them, as the server bundle's entry does.
 */
const before0 = precompiledSchemas();
await import(new URL(`../../../generated/${INSTALL_MODULE}`, import.meta.url).href);
type Factories = Record<string, (...args: never[]) => unknown>;

/** Counts each use of a precompiled factory until restored. */
function countUses(factories: Factories): { uses: () => number; restore: () => void } {
  const originals = { ...factories };
  let uses = 0;
  for (const [key, factory] of Object.entries(originals)) {
    factories[key] = (...args: never[]) => {
      uses += 1;
      return factory(...args);
    };
  }
  return { uses: () => uses, restore: () => Object.assign(factories, originals) };
}

describe('precompiled validators and serializers', () => {
  it("are none until the build's generated module installs them: no file of src/ is written over by the build", () => {
    assert.equal(Object.keys(before0.validators).length + Object.keys(before0.serializers).length, 0);
    assert.notEqual(precompiledSchemas(), before0);
  });

  it('hold the code of every schema of every route, in both modes, as compiled now (else: npm run build)', async () => {
    const { validators, serializers } = await compileEveryRoute();
    assert.ok(
      validators.size > 20 && serializers.size > 20,
      `the app has its routes' schemas (${validators.size}, ${serializers.size})`,
    );
    for (const [kind, codes, built] of [
      ['validator', validators, precompiledSchemas().validators],
      ['serializer', serializers, precompiledSchemas().serializers],
    ] as const) {
      for (const [key, code] of codes) {
        const factory = (built as Factories)[key];
        assert.ok(factory !== undefined, `the build has no ${kind} ${key}: run npm run build`);
        assert.ok(
          String(factory).includes(code),
          `the build's ${kind} ${key} is not the code compiled now: run npm run build`,
        );
      }
    }
  });

  describe('in the app as the server builds it', () => {
    let precompiled: TestApp;
    let compiledNow: TestApp;
    let validatorUses: ReturnType<typeof countUses>;
    let serializerUses: ReturnType<typeof countUses>;
    before(async () => {
      validatorUses = countUses(precompiledSchemas().validators as Factories);
      serializerUses = countUses(precompiledSchemas().serializers as Factories);
      precompiled = await startTestApp({ checkSchemas: false });
      compiledNow = await startTestApp({ checkSchemas: true });
    });
    after(async () => {
      validatorUses.restore();
      serializerUses.restore();
      await precompiled.close();
      await compiledNow.close();
    });

    it('validates a request and writes its answer with the precompiled code', async () => {
      const created = await createCrossBorder(precompiled);
      assert.equal(created.statusCode, 201, created.body);
      assert.ok(validatorUses.uses() > 0, 'a precompiled validator was used');
      assert.ok(serializerUses.uses() > 0, 'a precompiled serializer was used');
      const health = await precompiled.app.inject({ method: 'GET', url: '/health' });
      assert.equal(health.statusCode, 200);
    });

    it("has precompiled validators for the sandbox's certificate route too, which the app has only with a certificate service", async () => {
      const before = validatorUses.uses();
      const refused = await precompiled.app.inject({
        method: 'POST',
        url: '/v1/sandbox/certificates',
        payload: { organizationIdentifier: 'x', name: '', roles: [] },
      });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.ok(
        validatorUses.uses() > before,
        "the route's validators came from the build, not compiled at its first request",
      );
    });

    it('counts characters as validators compiled at run time do: 70 characters of surrogate pairs are a name, 71 are not', async () => {
      for (const [count, status] of [
        [NAME_MAX_LENGTH, 201],
        [NAME_MAX_LENGTH + 1, 400],
      ] as const) {
        const body = { ...crossBorderBody(), creditorName: '😀'.repeat(count) };
        const [fromBuild, fromNow] = await Promise.all(
          [precompiled, compiledNow].map((t) => createCrossBorder(t, { body })),
        );
        assert.equal(fromBuild!.statusCode, status, fromBuild!.body);
        assert.equal(fromNow!.statusCode, status, fromNow!.body);
      }
    });

    it('finds the same problems in a bad request as validators compiled at run time', async () => {
      const body = {
        ...crossBorderBody(),
        instructedAmount: { amount: '1,5', currency: 'NOKK' },
        creditorName: 7,
        unknownField: true,
      };
      const [fromBuild, fromNow] = await Promise.all(
        [precompiled, compiledNow].map((t) =>
          createCrossBorder(t, { body, headers: { 'TPP-Redirect-URI': 'not an address' } }),
        ),
      );
      assert.equal(fromBuild!.statusCode, 400);
      assert.ok((fromBuild!.json() as { tppMessages: unknown[] }).tppMessages.length >= 4, fromBuild!.body);
      assert.deepEqual(
        (fromBuild!.json() as { tppMessages: unknown }).tppMessages,
        (fromNow!.json() as { tppMessages: unknown }).tppMessages,
      );
    });
  });
});
