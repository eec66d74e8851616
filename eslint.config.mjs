import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { pureProjectRoots, pureRules } from './tools/eslint/purity.mjs';

const workspaceRoot = dirname(fileURLToPath(import.meta.url));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '**/src/generated/**', '**/test/fixtures/**', '**/reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { '@nx': nx },
    languageOptions: { globals: { console: 'readonly' } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure'], allowedExternalImports: ['fp-ts', 'fp-ts/*', 'io-ts', 'io-ts/*', 'fast-check'] },
            { sourceTag: 'scope:lib', onlyDependOnLibsWithTags: ['scope:lib'] },
            { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib', 'scope:app'] },
            { sourceTag: 'scope:tool', onlyDependOnLibsWithTags: ['scope:lib', 'scope:app'] },
          ],
        },
      ],
    },
  },
  {
    // Test configuration shares the root vitest settings; it is not part of any package's code.
    files: ['**/vitest.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: pureProjectRoots(workspaceRoot).map((root) => `${root}/src/**/*.ts`),
    ignores: pureProjectRoots(workspaceRoot).map((root) => `${root}/src/node/**`),
    rules: pureRules,
  },
);
