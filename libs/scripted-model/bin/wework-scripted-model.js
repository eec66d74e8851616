#!/usr/bin/env node
// `wework-scripted-model`: the built command (dist/node/cli.js). In a checkout of the repository that has
// not been built yet (a fresh clone right after `npm ci`), the repository's launcher builds it once first;
// a published package always carries dist/, so it never gets there.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/node/cli.js', import.meta.url);
if (existsSync(entry)) {
  await import(entry.href);
} else {
  const launcher = '@wework/launch-built';
  const { launchBuilt } = await import(launcher);
  await launchBuilt(import.meta.url, { entry: '../dist/node/cli.js', project: 'scripted-model' });
}
