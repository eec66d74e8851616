/**
 * The connector plugin: an MCP server whose one tool, `post_message`, needs a device login, like a
 * plugin backed by a local CLI with its own credentials. Until a login marker file exists it answers
 * the structured `connector_auth_required` error with its plugin key and connector slug (what Wework
 * detects to offer a login); once it exists, it posts (simulated) and says so.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { fileExists } from '../node/fileExists.js';

/** Options of {@link createConnectorServer}. */
export interface ConnectorServerOptions {
  /** The file whose existence means "logged in" (a login bridge writes it). */
  readonly loginFile: string;
  /** The plugin key the error names, e.g. `team-chat@wegent`. */
  readonly pluginKey: string;
  /** The connector slug the error names. */
  readonly connectorSlug: string;
}

/**
 * The result of `post_message` while logged out: an error whose structured content carries
 * `{ error: { code: "connector_auth_required", pluginKey, connectorSlug } }`.
 */
export function authRequiredResult(pluginKey: string, connectorSlug: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `The ${connectorSlug} connector is not logged in on this device (connector_auth_required).` }],
    structuredContent: { error: { code: 'connector_auth_required', pluginKey, connectorSlug } },
  };
}

/** Creates the connector plugin server (not yet connected to a transport). */
export function createConnectorServer(options: ConnectorServerOptions): McpServer {
  const server = new McpServer({ name: 'wework-connector-plugin', version: '0.1.0' });
  server.registerTool(
    'post_message',
    { description: 'Posts a message to the team chat.', inputSchema: { text: z.string() } },
    async ({ text }): Promise<CallToolResult> =>
      fileExists(options.loginFile)
        ? { content: [{ type: 'text', text: `posted: ${text}` }] }
        : authRequiredResult(options.pluginKey, options.connectorSlug),
  );
  return server;
}
