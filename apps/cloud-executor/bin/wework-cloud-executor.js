#!/usr/bin/env node
// `wework-cloud-executor`: the cloud executor (dist/main.js), built once first in a checkout that has not been built.
import { launchBuilt } from '@wework/launch-built';

await launchBuilt(import.meta.url, { entry: '../dist/main.js', project: 'cloud-executor' });
