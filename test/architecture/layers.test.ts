import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { sourceFiles } from '../support/source-files.js';

/**
 * The house flows one way (README, "Working on it"; STYLE.md): each folder of src/ sits in a layer,
 * and a file imports only from its own folder and from folders of the layers before its own. Folders
 * of one layer do not import each other: the store and security know nothing of one another.
 * Type-only and dynamic imports count, since they tie a folder to another as much as any import.
 */
const LAYERS: readonly (readonly string[])[] = [
  // Rules: money, codes, accounts, payments, errors. No HTTP, no storage.
  ['domain'],
  // What the rules need from the world: certificates and signatures, storage, the metrics' registry.
  ['security', 'store', 'metrics'],
  // The bank's core behind its port (docs/core.md): the embedded ledger over the store, or a bank's own core over HTTP.
  ['core'],
  // The settings a process starts with, and the sandbox's default data set.
  ['config', 'sandbox'],
  // Use cases; and the TPP's toolkit, which stands beside them (below).
  ['services', 'toolkit'],
  // The interfaces: the API's HTTP, the TPP's command line, and the reference core (a process of its own).
  ['http', 'cli', 'reference-core'],
  // The process's entry points (src/main.ts, src/early-start.ts), which put the house together.
  ['.'],
];

/** The TPP's client kit is for TPPs: of the server's own folders, only its command line uses it. */
const TOOLKIT = 'toolkit';
const TOOLKIT_USERS: readonly string[] = ['toolkit', 'cli'];

const SOURCE_ROOT = 'src';

const layerOf = new Map(LAYERS.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)));

interface SourceImport {
  /** The importing file, e.g. `src/store/store.ts`. */
  file: string;
  line: number;
  /** The import as written, e.g. `./queries/ledger-queries.js`. */
  specifier: string;
}

/** The folder of src/ a path under it belongs to: its first segment, or `.` for a file directly in src/. */
function folderOf(path: string): string {
  const segments = posix.relative(SOURCE_ROOT, path).split('/');
  return segments.length === 1 ? '.' : segments[0]!;
}

/** Why an import breaks the flow, or undefined when it keeps it. Imports of packages and of Node are not the house's. */
function backArrow({ file, specifier }: SourceImport): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(file), specifier));
  if (!target.startsWith(`${SOURCE_ROOT}/`)) return `reaches outside ${SOURCE_ROOT}/ (${target})`;
  const from = folderOf(file);
  const to = folderOf(target);
  if (from === to) return undefined;
  if (to === TOOLKIT && !TOOLKIT_USERS.includes(from))
    return `imports the TPP's toolkit, which only ${TOOLKIT_USERS.join(' and ')} may use`;
  const fromLayer = layerOf.get(from);
  const toLayer = layerOf.get(to);
  if (fromLayer === undefined) return `is in ${SOURCE_ROOT}/${from}/, a folder the layer table does not name`;
  if (toLayer === undefined) return `imports ${SOURCE_ROOT}/${to}/, a folder the layer table does not name`;
  if (toLayer === fromLayer) return `imports ${to}/, a folder of its own layer (${LAYERS[fromLayer]!.join(', ')})`;
  if (toLayer > fromLayer) return `imports ${to}/, a folder of a layer above ${from}/`;
  return undefined;
}

/** Every import of a file (static, type-only, re-exports, dynamic), as TypeScript's pre-processor finds them: not in comments or strings. */
function importsOf(file: string): SourceImport[] {
  const text = readFileSync(file, 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.map((found) => ({
    file,
    line: text.slice(0, found.pos).split('\n').length,
    specifier: found.fileName,
  }));
}

describe('the layers of src/', () => {
  const files = sourceFiles(SOURCE_ROOT);

  it('place every folder of src/ in one layer', () => {
    const folders = new Set(files.map(folderOf));
    for (const folder of folders) assert.ok(layerOf.has(folder), `src/${folder}/ is in no layer of the table`);
    for (const folder of layerOf.keys())
      assert.ok(folders.has(folder), `the table names src/${folder}/, which has no file`);
    assert.equal(layerOf.size, LAYERS.flat().length, 'a folder is in one layer only');
  });

  it('flow one way: no file imports from a folder of its own layer or one above, nor the toolkit but the command line', () => {
    const broken = files.flatMap(importsOf).flatMap((found) => {
      const why = backArrow(found);
      return why === undefined ? [] : [`${found.file}:${found.line} '${found.specifier}' ${why}`];
    });
    assert.deepEqual(broken, [], `imports against the flow:\n${broken.join('\n')}`);
  });

  it('keep the Store interfaces and their records apart from the queries: they import only records, interfaces and the domain', () => {
    // An area's interface (payment-store.ts) is as much the interface as store.ts; its implementations are not.
    const isRecords = (path: string) =>
      /^src\/store\/[a-z-]+-(records|store)\.ts$/.test(path) &&
      !/\/(kysely|closing|instrumented|open)-[a-z-]*store\.ts$/.test(path);
    const broken = files
      .filter((file) => file === 'src/store/store.ts' || isRecords(file))
      .flatMap(importsOf)
      .filter(({ file, specifier }) => {
        if (!specifier.startsWith('.')) return false;
        const target = posix.join(posix.dirname(file), specifier).replace(/\.js$/, '.ts');
        return !isRecords(target) && !target.startsWith('src/domain/');
      })
      .map((found) => `${found.file}:${found.line} '${found.specifier}'`);
    assert.deepEqual(broken, [], `the interface or a record imports what is not a record:\n${broken.join('\n')}`);
  });

  it('name the file and the import of a back arrow, and let an import within a folder or inwards pass', () => {
    const at = (file: string, specifier: string) => backArrow({ file, line: 1, specifier });
    assert.match(at('src/store/store.ts', '../http/app.js') ?? '', /imports http\/, a folder of a layer above store\//);
    assert.match(at('src/domain/bank.ts', '../store/store.js') ?? '', /a layer above domain\//);
    assert.match(at('src/security/sandbox-ca.ts', '../toolkit/certificate-factory.js') ?? '', /toolkit/);
    assert.match(at('src/services/banks.ts', '../toolkit/tpp-client.js') ?? '', /only toolkit and cli may use/);
    assert.match(at('src/store/store.ts', '../security/digest.js') ?? '', /a folder of its own layer/);
    assert.match(at('src/security/digest.ts', '../config/config.js') ?? '', /a layer above security\//);
    assert.match(at('src/store/store.ts', '../../scripts/bundle.js') ?? '', /outside src\//);
    assert.equal(at('src/store/queries/ledger-queries.ts', '../ledger-records.js'), undefined);
    assert.equal(at('src/store/store.ts', '../domain/bank.js'), undefined);
    assert.equal(at('src/cli/tpp.ts', '../toolkit/tpp-client.js'), undefined);
    assert.equal(at('src/main.ts', './http/app.js'), undefined);
    assert.equal(at('src/http/app.ts', 'fastify'), undefined);
  });

  it('read type-only and dynamic imports too', () => {
    // An import the check could not see would pass it whatever it names.
    const specifiers = (file: string) => importsOf(file).map((found) => found.specifier);
    assert.ok(specifiers('src/store/store.ts').includes('./ledger-store.js'), 'import type');
    assert.ok(specifiers('src/store/open-store.ts').includes('./sqlite/sqlite-store.js'), 'import()');
  });
});
