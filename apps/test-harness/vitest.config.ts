import { defineConfig, mergeConfig } from 'vitest/config';
import { projectTestConfig } from '../../vitest.shared.js';

// Every test file also checks the conformance of the hosts it closed (test/support/conformance.setup.ts).
export default mergeConfig(defineConfig(projectTestConfig({ testTimeout: 60_000 })), defineConfig({ test: { setupFiles: ['test/support/conformance.setup.ts'] } }));
