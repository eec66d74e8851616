/**
 * The example at the top of README.md, kept compiling and passing against the built forms plugin:
 * the block between the markers below must be the README's first TypeScript block (after its
 * imports), line for line. `client.close()` ends the plugin's process.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

test('the README shows exactly the example above', async () => {
  const here = fileURLToPath(import.meta.url);
  const source = await readFile(here, 'utf8');
  const block = (source.split('// --- README example begins ---\n')[1] ?? '').split('  // --- README example ends ---')[0] ?? '';
  const example = block.split('\n').map((line) => line.replace(/^ {2}/, '')).join('\n').trimEnd();
  const readme = await readFile(join(here, '..', '..', 'README.md'), 'utf8');
  const readmeBlock = (/```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '').trimEnd();
  expect(example).not.toBe('');
  expect(readmeBlock.endsWith(example)).toBe(true);
});
