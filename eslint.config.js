// Limits the build enforces (docs/decisions/0321). Formatting is Prettier's, type errors are tsc's,
// import cycles dpdm's (through types too, which import-x's no-cycle skips): ESLint holds only the
// sizes of files and functions, which none of them checks.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.mjs', '**/*.js'] },
  {
    // A test file is a list of cases: a long describe is a table, not a function to split.
    files: ['src/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 70 }],
    },
  },
);
