import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { pureProjectRoots, pureRules } from './tools/eslint/purity.mjs';

const workspaceRoot = dirname(fileURLToPath(import.meta.url));

/**
 * Who may depend on whom; `pureExternals` are the only packages a `type:pure` project may import, and
 * `alsoTags` what every project may import besides (the shared test fixtures, from test files only).
 */
const depConstraints = (pureExternals, alsoTags = []) => [
  { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure', ...alsoTags], allowedExternalImports: pureExternals },
  { sourceTag: 'scope:lib', onlyDependOnLibsWithTags: ['scope:lib', ...alsoTags] },
  { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib', 'scope:app', 'scope:launcher', ...alsoTags] },
  { sourceTag: 'scope:tool', onlyDependOnLibsWithTags: ['scope:lib', 'scope:app', ...alsoTags] },
  { sourceTag: 'scope:test-support', onlyDependOnLibsWithTags: ['scope:lib'] },
];

/** The shared test fixtures (`@wework/test-support`), which test files may import and nothing else. */
const TEST_SUPPORT = ['scope:test-support'];

/** The packages pure code may import: functional data types, decoding, TOML text, inflating, property tests. */
const PURE_EXTERNALS = ['fp-ts', 'fp-ts/*', 'io-ts', 'io-ts/*', 'smol-toml', 'fflate', 'fast-check'];
/** The IO packages a pure library's Node implementation may import besides Node's built-ins (vscode-jsonrpc: the Node transport of `@wework/jsonrpc/node`). */
const NODE_EXTERNALS = ['node:*', 'undici', 'vscode-jsonrpc', 'vscode-jsonrpc/*'];

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
          depConstraints: depConstraints(PURE_EXTERNALS),
        },
      ],
    },
  },
  {
    // Tests of a pure library may use the test runner; the library's own sources stay pure.
    files: ['**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints: depConstraints([...PURE_EXTERNALS, 'vitest', 'vitest/*'], TEST_SUPPORT) }],
    },
  },
  {
    // A README example shows a library in its host's setting (an MCP SDK client or server); the test that
    // runs the example as written may import what the example imports.
    files: ['libs/*/test/readme.test.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { allow: [], depConstraints: depConstraints([...PURE_EXTERNALS, 'vitest', 'vitest/*', '@modelcontextprotocol/sdk/*'], TEST_SUPPORT) },
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
  {
    // The Node implementation of a pure library's ports may use Node built-ins and IO libraries.
    files: pureProjectRoots(workspaceRoot).map((root) => `${root}/src/node/**/*.ts`),
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure', 'type:io'], allowedExternalImports: [...PURE_EXTERNALS, ...NODE_EXTERNALS] },
            ...depConstraints(PURE_EXTERNALS).slice(1),
          ],
        },
      ],
    },
  },
);
