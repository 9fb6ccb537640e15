// Limits the build enforces (docs/decisions/0321). Formatting is Prettier's;
// type errors are tsc's. ESLint holds only what neither checks: size and import cycles.
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.mjs', '**/*.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 70 }],
      'import-x/no-cycle': ['error'],
    },
  },
);
