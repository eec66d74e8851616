/**
 * Shared vitest settings: tests resolve workspace packages to their TypeScript sources
 * through the `@wework/source` export condition, so no build is needed to test a change.
 */
import { defaultServerConditions, type UserConfig } from 'vite';

const conditions = ['@wework/source', ...defaultServerConditions];

export interface ProjectTestOptions {
  /** Per-test timeout in milliseconds; end-to-end suites that start real processes need more. */
  readonly testTimeout?: number;
}

/** Builds the vitest configuration of one workspace project. */
export function projectTestConfig(options: ProjectTestOptions = {}): UserConfig {
  return {
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@wework/source'] } },
    test: {
      include: ['test/**/*.test.ts'],
      typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
      testTimeout: options.testTimeout ?? 10_000,
      hookTimeout: options.testTimeout ?? 10_000,
      pool: 'forks',
    },
  } as UserConfig;
}
