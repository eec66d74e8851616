/**
 * The built connector plugin over stdio, driven by the MCP SDK's client: `connector_auth_required`
 * (structured, with plugin key and connector slug) until its login file exists, then the post.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkPluginBuilt } from '../src/index.js';

let root: string;
let client: Client;

beforeAll(async () => {
  const built = checkPluginBuilt('connector');
  if (!built.ok) throw new Error(`connector plugin not built at ${built.error.path}`);
  root = await mkdtemp(join(tmpdir(), 'connector-plugin-'));
  client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: built.command.command, args: [...built.command.args], env: { ...process.env, CONNECTOR_LOGIN_FILE: join(root, 'login') } as Record<string, string>, stderr: 'inherit' }));
});

afterAll(async () => {
  await client?.close();
  await rm(root, { recursive: true, force: true });
});

it('reports connector_auth_required until the login file exists, then posts', async () => {
  const before = await client.callTool({ name: 'post_message', arguments: { text: 'hi' } });
  expect(before).toMatchObject({ isError: true, structuredContent: { error: { code: 'connector_auth_required', pluginKey: 'team-chat@wegent', connectorSlug: 'team-chat' } } });
  await writeFile(join(root, 'login'), 'ok');
  const after = await client.callTool({ name: 'post_message', arguments: { text: 'hi' } });
  expect(after).toMatchObject({ content: [{ type: 'text', text: 'posted: hi' }] });
  expect(after.isError ?? false).toBe(false);
});
