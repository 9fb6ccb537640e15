import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildStandInApp } from './stand-in-app.js';

/**
 * Compiles the validator and serializer of every route of the app, in both modes, as standalone
 * code (Ajv's and fast-json-stringify's), into dist/generated/: a module that installs them
 * (src/http/schema-compiler/precompiled.ts says how they are found), and the server bundle's entry,
 * which runs that module before the server's own. Nothing in src/ is written over: what the build
 * generates lives in its own folder. The app is built as the server builds it, with every route
 * (scripts/stand-in-app.ts), so a route added to it is compiled here with no other step.
 */
export async function writePrecompiledSchemas(
  folder = 'dist/generated',
): Promise<{ validators: number; serializers: number; entry: string }> {
  const { validators, serializers } = await compileEveryRoute();
  const entries = (codes: Map<string, string>, parameters: string, head: string) =>
    [...codes]
      .map(
        ([key, code]) =>
          `    ${JSON.stringify(key)}: function (${parameters}) {${head}\n${code}\n  return module.exports;\n    },`,
      )
      .join('\n');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, INSTALL_MODULE),
    `// Written by scripts/precompile-schemas.ts at build: do not edit.
import { installPrecompiledSchemas } from '../src/http/schema-compiler/precompiled.js';

installPrecompiledSchemas({
  validators: {
${entries(validators, 'formats, require', ' const module = { exports: {} };')}
  },
  serializers: {
${entries(serializers, 'require, module', '')}
  },
});
`,
  );
  const entry = join(folder, 'server-entry.js');
  // ES modules run in the order they are imported: the compiled code is installed before main builds the app.
  writeFileSync(
    entry,
    `// Written by scripts/precompile-schemas.ts at build: do not edit.
import './${INSTALL_MODULE}';
import '../src/main.js';
`,
  );
  return { validators: validators.size, serializers: serializers.size, entry };
}

/** The generated module that installs the compiled code, in dist/generated/. */
export const INSTALL_MODULE = 'install-precompiled-schemas.js';

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
