/**
 * The example at the top of README.md, kept compiling and passing against the built forms plugin:
 * the block between the markers below must be the README's first TypeScript block (after its
 * imports), line for line. `client.close()` ends the plugin's process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { formsPluginCommand } from '../src/index.js';

test('README example', async () => {
  // --- README example begins ---
  const client = new Client({ name: 'demo', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { target: 'production' } }));
  const { command, args } = formsPluginCommand();
  await client.connect(new StdioClientTransport({ command, args: [...args] }));
  const result = await client.callTool({ name: 'deploy', arguments: { service: 'web' } });
  // result.content[0].text === 'elicitation: accept {"target":"production"}\noutcome: deployed web to production'
  await client.close();
  // --- README example ends ---

  expect(result.content).toEqual([{ type: 'text', text: 'elicitation: accept {"target":"production"}\noutcome: deployed web to production' }]);
});
