/**
 * The two examples at the top of README.md, run connected to each other over stdio: the host's block
 * between the markers below must be the README's first TypeScript block (after its imports), and
 * `fixtures/readme/plugin.js`, the plugin the host starts as `node plugin.js`, must be its second block,
 * line for line. The plugin's process ends with `client.close()`.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect, test, vi } from 'vitest';
import { defaultAnswers, handleElicitationRequest, responseForCard, toMcpElicitResult, type Card, type HostReply } from '../src/index.js';

const here = fileURLToPath(import.meta.url);
const pluginDir = join(dirname(here), 'fixtures', 'readme');
const workingDirectory = process.cwd();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  process.chdir(workingDirectory);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const readmeBlocks = async (): Promise<string[]> =>
  [...(await readFile(join(dirname(here), '..', 'README.md'), 'utf8')).matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => (match[1] ?? '').trimEnd());

test('README examples: the host answers the plugin form with the default option', async () => {
  process.chdir(pluginDir); // where plugin.js is
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  cleanups.push(async () => warn.mockRestore());
  // --- README example begins ---
  // Stands in for the host's UI: takes the default option of every choice and types into text fields.
  async function showCard(card: Card): Promise<HostReply> {
    const { answers } = defaultAnswers(card);
    for (const question of card.questions) if (question.answerType === 'text') answers[question.id] ??= { answers: ['typed by the user'] };
    return { answers };
  }

  const client = new Client({ name: 'my-host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const decision = handleElicitationRequest(request.params);
    if (decision._tag === 'Respond') {
      console.warn(decision.reason.message); // e.g. Unsupported elicitation: property "port" has an enum value that is not a string ...
      return toMcpElicitResult(decision.response); // { action: 'decline' }
    }
    const reply = await showCard(decision.card);
    return toMcpElicitResult(responseForCard(decision.card, reply)); // e.g. { action: 'accept', content: { strategy: 'fast', ... } }
  });
  await client.connect(new StdioClientTransport({ command: 'node', args: ['plugin.js'] }));
  // --- README example ends ---
  cleanups.push(() => client.close());

  const result = await client.callTool({ name: 'handle', arguments: {} });
  expect(result.content).toEqual([{ type: 'text', text: 'handling with fast' }]);
  expect(warn).not.toHaveBeenCalled();
});

test('the README shows exactly the plugin fixture', async () => {
  const [, plugin] = await readmeBlocks();
  expect(plugin).toBe((await readFile(join(pluginDir, 'plugin.js'), 'utf8')).trimEnd());
});
