import type { BuildOptions, Plugin } from 'esbuild';

/**
 * How the server is bundled (scripts/bundle.ts), held apart so that the bench's floor under a start
 * (bench/start-ceiling.ts) is bundled the same way: what the two starts load differs only by what
 * the server's code adds.
 */
export const SERVER_BUNDLE_OPTIONS = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  outExtension: { '.js': '.cjs' },
  external: ['better-sqlite3', 'pg-native'],
  // Without comments and indentation: V8 holds the bundle's whole text for as long as the server
  // runs, and a third of it was comments and blanks (docs/decisions/0337). In ASCII only: one
  // character beyond it would make V8 hold the text as two bytes a character. Names are kept, so a
  // stack trace still names its functions.
  minifyWhitespace: true,
  legalComments: 'none',
  charset: 'ascii',
  // Our ES modules find files beside them (and libraries) from import.meta.url: the bundle's own address.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
  plugins: [modulesOnFirstUse()],
} satisfies BuildOptions;

/**
 * Modules a library requires as it loads but uses only later, if at all, each given to that library
 * (and only to it) as a stand-in that requires the module at its first use. Each was loaded at every
 * start for nothing: together some 40 ms of a cold start (bench/history.md, "Modules a start loaded
 * for nothing"). Another importer of the same module gets the module itself.
 */
const ON_FIRST_USE: { module: RegExp; importer: RegExp }[] = [
  // The table of media types (200 KB of JSON), looked up only for an answer whose type the plugin's
  // own pattern does not already call compressible: never for the server's JSON and HTML.
  { module: /^mime-db$/, importer: /[\\/]@fastify[\\/]compress[\\/]index\.js$/ },
  // Fastify makes an HTTPS or HTTP/2 server only when asked; the server asks for neither.
  { module: /^node:(https|http2)$/, importer: /[\\/]fastify[\\/]lib[\\/]server\.js$/ },
  // prom-client's push gateway, which the server does not use.
  { module: /^https$/, importer: /[\\/]prom-client[\\/]lib[\\/]pushgateway\.js$/ },
];

function modulesOnFirstUse(): Plugin {
  const namespace = 'on-first-use';
  return {
    name: namespace,
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) =>
        ON_FIRST_USE.some((entry) => entry.module.test(args.path) && entry.importer.test(args.importer))
          ? { path: args.path, namespace }
          : undefined,
      );
      // The stand-in's own require of the module comes from this namespace, which no importer pattern matches.
      build.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents: `let loaded; const real = () => (loaded ??= require(${JSON.stringify(args.path)}));
module.exports = new Proxy({}, { get: (_, key) => real()[key], has: (_, key) => key in real() });`,
        loader: 'js',
        resolveDir: process.cwd(),
      }));
    },
  };
}

/** The file that starts a bundle as `npm start` starts the server's: it turns the compile cache on, then requires the `.cjs` beside it. */
export const SERVER_LOADER = 'dist/scripts/server-loader.js';
