#!/usr/bin/env node
/**
 * The forms plugin as an executable MCP server over stdio. It exits when its stdin closes or
 * on SIGTERM/SIGINT.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFormsServer } from '../forms/FormsServer.js';

const { server } = createFormsServer();
let stopping = false;

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  void server.close().finally(() => process.exit(code));
}

process.stdin.on('end', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));

server.connect(new StdioServerTransport()).catch((e: unknown) => {
  process.stderr.write(`wework-forms-plugin: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
