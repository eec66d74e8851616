#!/usr/bin/env node
/**
 * A recording stdio MCP proxy: `node main.js --log <file.jsonl> -- <command> [args...]`.
 * Starts the MCP server, passes its stdio through unchanged, appends every message of each
 * direction to the log, and exits with the server's exit code.
 */
import * as E from 'fp-ts/lib/Either.js';
import { PROXY_USAGE, parseProxyArguments } from './ProxyArguments.js';
import { runProxy } from './runProxy.js';

const parsed = parseProxyArguments(process.argv.slice(2));
if (E.isLeft(parsed)) {
  process.stderr.write(`mcp-proxy: ${parsed.left.message}\n${PROXY_USAGE}\n`);
  process.exit(2);
}

const code = await runProxy(parsed.right, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  onSignal: (signal, listener) => process.on(signal, listener),
});
process.stdout.write('', () => process.exit(code));
