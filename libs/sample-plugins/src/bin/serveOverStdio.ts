/**
 * Runs a sample plugin's MCP server over stdio until its stdin closes or SIGTERM/SIGINT arrives.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** Connects `server` to this process's stdio; `name` prefixes a start-up failure on stderr. */
export function serveOverStdio(server: McpServer, name: string): void {
  let stopping = false;
  const stop = (code: number): void => {
    if (stopping) return;
    stopping = true;
    void server.close().finally(() => process.exit(code));
  };
  process.stdin.on('end', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  server.connect(new StdioServerTransport()).catch((e: unknown) => {
    process.stderr.write(`${name}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
