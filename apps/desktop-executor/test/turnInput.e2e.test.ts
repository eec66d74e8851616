/**
 * Composing turn/start from composer content against the real app-server: mentions become structured
 * items Codex acts on, link-looking text stays text, and a vanished saved model blocks sending.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MarketplaceAdd, PluginInstall } from '@wework/codex-protocol';
import { createTurnImageStore } from '@wework/image-preprocess/node';
import { app, plugin, serialize, skill, text } from '@wework/mention-serializer';
import { respond, say } from '@wework/scripted-model';
import { threadParamsFor } from '../src/executorConfig.js';
import { composeTurn, type TurnRequest } from '../src/turn/composeTurn.js';
import { managedConfig, startSandbox, type Sandbox } from './support/executorSandbox.js';
import { writeLocalMarketplace } from '@wework/test-support';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const host = { showCard: () => Promise.resolve({ action: 'cancel' as const }) };
const SKILL_BODY = 'Always answer in haiku. (skill body marker 7731)';

/** Writes a local marketplace with one plugin (carrying one skill) and returns its manifest path. */
const localMarketplace = (root: string): Promise<string> =>
  writeLocalMarketplace(root, {
    name: 'local-market',
    plugins: [{ name: 'demo-plugin', version: '0.1.0', description: 'Demo plugin', skills: [{ name: 'greet', description: 'Greets warmly', body: 'Greet the user warmly.' }] }],
  });

async function setUp(
  options: { readonly plugins?: boolean } = {},
): Promise<{ box: Sandbox; skillPath: string; send: (request: Omit<TurnRequest, 'attachments' | 'modelCategory' | 'task'>) => Promise<unknown> }> {
  const managed = managedConfig();
  // Codex's plugin system is off in tests (`[features] plugins = false`, no network sync) unless a test needs it.
  const config = (url: string, forms: { readonly command: string; readonly args: ReadonlyArray<string> }) => {
    const base = managed(url, forms);
    return options.plugins === true ? { ...base, features: { ...(base['features'] as object), plugins: true } } : base;
  };
  const box = await startSandbox({ script: [respond(say('ok'))], host, config, threadParams: threadParamsFor() }, cleanups);
  const dir = join(box.workspace, '.agents/skills/haiku');
  await mkdir(dir, { recursive: true });
  const skillPath = join(dir, 'SKILL.md');
  await writeFile(skillPath, `---\nname: haiku\ndescription: Answer in haiku\n---\n\n${SKILL_BODY}\n`);
  const storeRoot = await mkdtemp(join(tmpdir(), 'model-input-'));
  cleanups.push(() => rm(storeRoot, { recursive: true, force: true }));
  const catalog = await box.runtime.loadModelCatalog();
  if (E.isLeft(catalog)) throw new Error(JSON.stringify(catalog.left));
  const send = async (request: Omit<TurnRequest, 'attachments' | 'modelCategory' | 'task'>) => {
    const images = createTurnImageStore({ root: storeRoot }).beginTurn('t');
    try {
      const composed = await composeTurn({ ...request, attachments: [], modelCategory: 'nonOfficial', task: {} }, catalog.right, images);
      if (E.isLeft(composed)) return composed;
      return await box.runtime.runTurn(box.threadId, composed.right.input, composed.right.params);
    } finally {
      await images.end();
    }
  };
  return { box, skillPath, send };
}

const userMessageContent = (box: Sandbox): unknown => box.items.find((item) => item.type === 'userMessage');

describe('composer content to turn/start', () => {
  it('a skill mention makes the skill’s SKILL.md reach the model', async () => {
    const { box, skillPath, send } = await setUp();
    await send({ markdown: serialize([text('Use '), skill('haiku', skillPath), text(' for this.')]), savedModel: undefined });
    expect(JSON.stringify(box.model.requests[0]?.body).includes(SKILL_BODY)).toBe(true);
    expect(userMessageContent(box)).toMatchObject({ content: expect.arrayContaining([{ type: 'skill', name: 'haiku', path: skillPath }]) });
  });

  it('app and plugin mentions reach Codex as structured mentions', async () => {
    const { box, send } = await setUp();
    const markdown = serialize([text('Check '), app('Calendar', 'calendar'), text(' and '), plugin('Forms', 'forms', 'local-market')]);
    const turn = await send({ markdown, savedModel: undefined });
    expect(turn).toMatchObject({ right: { status: 'completed' } });
    expect(userMessageContent(box)).toMatchObject({
      content: expect.arrayContaining([
        { type: 'mention', name: 'Calendar', path: 'app://calendar' },
        { type: 'mention', name: 'Forms', path: 'plugin://forms@local-market' },
      ]),
    });
  });

  it('a plugin installed from a local marketplace: its mention makes Codex add the plugin’s capabilities for the turn', async () => {
    const { box, send } = await setUp({ plugins: true });
    const market = await mkdtemp(join(tmpdir(), 'local-market-'));
    cleanups.push(() => rm(market, { recursive: true, force: true }));
    const manifest = await localMarketplace(market);
    const client = box.runtime.server.client;
    expect(await client.request(MarketplaceAdd, { source: market })).toMatchObject({ right: { marketplaceName: 'local-market' } });
    expect(E.isRight(await client.request(PluginInstall, { marketplacePath: manifest, pluginName: 'demo-plugin' }))).toBe(true);
    await send({ markdown: serialize([text('Use '), plugin('Demo', 'demo-plugin', 'local-market'), text(' to greet me')]), savedModel: undefined });
    expect(userMessageContent(box)).toMatchObject({ content: expect.arrayContaining([{ type: 'mention', name: 'Demo', path: 'plugin://demo-plugin@local-market' }]) });
    expect(JSON.stringify(box.model.requests[0]?.body).includes('Capabilities from the `demo-plugin` plugin')).toBe(true);
  });

  it('text that only looks like a link stays text: no structured item, no skill injected', async () => {
    const { box, send } = await setUp();
    const markdown = 'See [$haiku](https://example.com/SKILL.md) and [docs](https://example.com).';
    await send({ markdown, savedModel: undefined });
    const content = (userMessageContent(box) as { content: Array<{ type: string; text?: string }> }).content;
    // Only text: Codex reads mentions out of text whatever the backslash, so the look-alike is cut into two text items after its sigil.
    expect(content.map((part) => part.type)).toEqual(['text', 'text']);
    const body = JSON.stringify(box.model.requests[0]?.body);
    expect(body.includes(SKILL_BODY)).toBe(false);
    // The serializer escapes a look-alike's `[` so no reader takes it for a mention; joined, the parts are the text as written.
    const written = 'See \\[$haiku](https://example.com/SKILL.md) and [docs](https://example.com).';
    expect(content.map((part) => part.text).join('')).toBe(written);
    for (const part of content) expect(body.includes(JSON.stringify(part.text).slice(1, -1))).toBe(true);
  });

  it('a task whose saved model disappeared cannot send, and says why', async () => {
    const { box, send } = await setUp();
    const result = await send({ markdown: 'hello', savedModel: 'gpt-retired-model' });
    expect(result).toMatchObject({ _tag: 'Left', left: { _tag: 'ModelUnavailable', model: 'gpt-retired-model' } });
    expect(box.model.requests).toEqual([]);
  });
});
