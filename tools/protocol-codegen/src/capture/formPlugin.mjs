/**
 * A tiny MCP server (stdio) whose one tool asks the user a form through MCP elicitation, so the
 * capture can record `mcpServer/elicitation/request` as Codex forwards it.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'golden-forms', version: '1.0.0' });

server.registerTool('choose_strategy', { description: 'Asks the user how to continue.' }, async () => {
  const answer = await server.server.elicitInput({
    mode: 'form',
    message: 'Choose how to continue',
    requestedSchema: {
      type: 'object',
      properties: {
        strategy: {
          type: 'string',
          title: 'Strategy',
          description: 'How should the plugin continue?',
          oneOf: [
            { const: 'fast', title: 'Fast' },
            { const: 'safe', title: 'Safe' },
          ],
        },
        retries: { type: 'integer', title: 'Retries', minimum: 0, maximum: 9 },
        notify: { type: 'boolean', title: 'Notify me', default: false },
      },
      required: ['strategy'],
    },
  });
  return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
});

await server.connect(new StdioServerTransport());
