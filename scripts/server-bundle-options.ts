import type { BuildOptions } from 'esbuild';

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
} satisfies BuildOptions;

/** The file that starts a bundle as `npm start` starts the server's: it turns the compile cache on, then requires the `.cjs` beside it. */
export const SERVER_LOADER = 'dist/scripts/server-loader.js';
