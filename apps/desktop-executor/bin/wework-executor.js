#!/usr/bin/env node
// `wework-executor`: the desktop executor's serve entry (dist/serve.js), built once first in a checkout that has not been built.
import { launchBuilt } from '@wework/launch-built';

await launchBuilt(import.meta.url, { entry: '../dist/serve.js', project: 'desktop-executor' });
