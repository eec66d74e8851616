#!/usr/bin/env node
// `wework-harness`: the built CLI (dist/cli.js), built once first in a checkout that has not been built.
import { launchBuilt } from '@wework/launch-built';

await launchBuilt(import.meta.url, { entry: '../dist/cli.js', project: 'test-harness' });
