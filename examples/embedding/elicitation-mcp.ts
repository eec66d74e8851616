/**
 * The elicitation mapper in a host built on the plain MCP SDK: a plugin (a real MCP server) whose tool
 * asks the user a form, and a host (a real MCP client) that shows the form as a card and sends the
 * user's answer back as the plugin's `ElicitResult`. Both run in this process, connected by the SDK's
 * in-memory transport; over stdio the host's code is the same (`StdioClientTransport`).
 *
 * Run: `node examples/dist/embedding/elicitation-mcp.js` (after `npx nx build examples`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { handleElicitationRequest, responseForCard, toMcpElicitResult, type Card, type HostReply } from '@wework/elicitation-mapper';

// The plugin: its `deploy` tool asks where to deploy and how many replicas, then reports what came back.
const plugin = new McpServer({ name: 'deploy-plugin', version: '1.0.0' });
plugin.registerTool('deploy', { description: 'Deploys the service where the user says' }, async () => {
  const result = await plugin.server.elicitInput({
    mode: 'form',
    message: 'Where should the service go?',
    requestedSchema: {
      type: 'object',
      properties: {
        target: { type: 'string', title: 'Target', oneOf: [{ const: 'staging', title: 'Staging' }, { const: 'production', title: 'Production' }] },
        replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9 },
      },
      required: ['target'],
    },
  });
  return { content: [{ type: 'text', text: `${result.action} ${JSON.stringify(result.content ?? {})}` }] };
});

// The host's UI, here a stand-in: it prints the card and answers as a user would, by the options' labels.
function showCard(card: Card): HostReply {
  console.log(`card: ${card.message}`);
  for (const question of card.questions) {
    const options = question.options === null ? '' : ` [${question.options.map((option) => option.label).join(', ')}]`;
    console.log(`  ${question.id} (${question.answerType}${question.required ? ', required' : ''}): ${question.question}${options}`);
  }
  return { answers: { target: { answers: ['Production'] }, replicas: { answers: ['3'] } } };
}

// The host: an MCP client that can show forms, mapping each `elicitation/create` through the mapper.
const host = new Client({ name: 'my-host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
host.setRequestHandler(ElicitRequestSchema, (request) => {
  const decision = handleElicitationRequest(request.params);
  // A form the spec cannot show is declined at once, with the reason for the host's log.
  if (decision._tag === 'Respond') return toMcpElicitResult(decision.response);
  const reply = showCard(decision.card);
  return toMcpElicitResult(responseForCard(decision.card, reply));
});

const [hostSide, pluginSide] = InMemoryTransport.createLinkedPair();
await plugin.connect(pluginSide);
await host.connect(hostSide);
const result = await host.callTool({ name: 'deploy', arguments: {} });
console.log(`plugin received: ${JSON.stringify(result.content)}`);
await host.close();
await plugin.close();
