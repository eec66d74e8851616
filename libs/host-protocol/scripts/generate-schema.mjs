#!/usr/bin/env node
/**
 * Writes the host protocol's JSON Schema and OpenRPC documents (`schema/host-protocol.schema.json`,
 * `schema/host-protocol.openrpc.json`) from the built library: `npm run schema:generate` at the
 * workspace root builds it first. The library's test `test/SchemaFiles.test.ts` fails when the committed
 * files and the codecs drift apart.
 * Usage: node scripts/generate-schema.mjs   (from libs/host-protocol, after its build)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostProtocolSchemaFiles } from '../dist/index.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = hostProtocolSchemaFiles();
if (files._tag === 'Left') {
  console.error(`The host protocol's codecs cannot be described as JSON Schema:\n${files.left.map((error) => JSON.stringify(error)).join('\n')}`);
  process.exit(1);
}
for (const file of files.right) {
  const target = join(packageDir, file.path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, file.text);
  console.log(`wrote ${file.path} (${file.text.length} characters)`);
}
