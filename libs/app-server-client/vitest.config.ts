import { defineConfig } from 'vitest/config';
import { projectTestConfig } from '../../vitest.shared.js';

// End-to-end tests start the real app-server (about a second each); the rest finish in milliseconds.
export default defineConfig(projectTestConfig({ testTimeout: 30_000 }));
