// Limits the build enforces (docs/decisions/0321). Formatting is Prettier's;
// type errors are tsc's. ESLint holds only what neither checks: size and import cycles. import-x
// skips imports of types only; `npm run lint` runs dpdm after ESLint for cycles through types.
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.mjs', '**/*.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    // typescript-eslint's rules are known (some tests name one in a directive) but none is on.
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: { 'import-x/no-cycle': ['error'] },
  },
  {
    // A test file is a list of cases: a long describe is a table, not a function to split.
    files: ['src/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 70 }],
    },
  },
);
