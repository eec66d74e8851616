import { defineConfig } from 'vitest/config';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the shared test settings live at the workspace root
import { projectTestConfig } from '../../vitest.shared.js';

export default defineConfig(projectTestConfig());
