import { writeFileSync } from 'node:fs';
import { buildStandInApp } from './stand-in-app.js';

/**
 * Compiles the validator and serializer of every route of the app, in both modes, as standalone
 * code (Ajv's and fast-json-stringify's), and writes them over tsc's output of
 * src/http/schema-compiler/precompiled-schemas.ts (src/http/schema-compiler/precompiled.ts says how they are found). The app is
 * built as the server builds it, with every route (scripts/stand-in-app.ts), so a route added to it
 * is compiled here with no other step.
 */
export async function writePrecompiledSchemas(
  file = 'dist/src/http/schema-compiler/precompiled-schemas.js',
): Promise<{ validators: number; serializers: number }> {
  const { validators, serializers } = await compileEveryRoute();
  const entries = (codes: Map<string, string>, parameters: string, head: string) =>
    [...codes]
      .map(
        ([key, code]) =>
          `    ${JSON.stringify(key)}: function (${parameters}) {${head}\n${code}\n  return module.exports;\n    },`,
      )
      .join('\n');
  writeFileSync(
    file,
    `// Written by scripts/precompile-schemas.ts at build, over tsc's output of src/http/schema-compiler/precompiled-schemas.ts: do not edit.
export const precompiledSchemas = {
  validators: {
${entries(validators, 'formats, require', ' const module = { exports: {} };')}
  },
  serializers: {
${entries(serializers, 'require, module', '')}
  },
};
`,
  );
  return { validators: validators.size, serializers: serializers.size };
}

/** The standalone code of every validator and serializer of the app in both modes, by key. */
export async function compileEveryRoute(): Promise<{
  validators: Map<string, string>;
  serializers: Map<string, string>;
}> {
  const validators = new Map<string, string>();
  const serializers = new Map<string, string>();
  for (const mode of ['sandbox', 'production'] as const) {
    const app = await buildStandInApp(mode, {
      validator: (key, code) => validators.set(key, code),
      serializer: (key, code) => serializers.set(key, code),
    });
    await app.close();
  }
  return { validators, serializers };
}
