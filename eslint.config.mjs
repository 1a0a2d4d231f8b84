// typescript-eslint with type information over every TypeScript file of the workspace.
// `pnpm lint` runs it and Prettier's check; `pnpm test` runs `pnpm lint` first.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { architecture } from './eslint.architecture.mjs';

const node = {
  process: 'readonly',
  module: 'writable',
  require: 'readonly',
  fetch: 'readonly',
  AbortSignal: 'readonly',
  console: 'readonly',
  __dirname: 'readonly',
};

export default tseslint.config(
  // The typed client's types are openapi-typescript's output, checked by tsc and regenerated, never edited.
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', 'test-e2e/typed-client/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A leading underscore marks a value dropped on purpose (a field left out of a spread).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read answers as JSON (supertest's body is `any`) and assert on their shape: the
    // unsafe-any rules would demand a type for every answer a test looks into.
    files: ['**/test/**', 'test-e2e/**', 'packages/dev-env/**', 'jest/**', 'bench/**', 'scripts/examples.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  ...architecture,
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.js', '**/*.cjs'], languageOptions: { globals: node, sourceType: 'commonjs' } },
  { files: ['**/*.mjs'], languageOptions: { globals: node } },
);
