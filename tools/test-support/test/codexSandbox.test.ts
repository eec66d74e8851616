import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { respond, say } from '@wework/scripted-model';
import { startCodexSandbox, writeCodexConfig } from '../src/index.js';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('startCodexSandbox', () => {
  it('makes the directories, serves the script and selects the scripted model in config.toml', async () => {
    const box = await startCodexSandbox({ script: [respond(say('hi'))], prefix: 'test-support-box-', directories: ['downloads'], config: () => ({ features: { plugins: true }, mcp_servers: { forms: { command: 'node' } } }) });
    try {
      for (const dir of [box.codexHome, box.home, box.workspace, box.path('downloads')]) expect(existsSync(dir)).toBe(true);
      const config = parseToml(await readFile(`${box.codexHome}/config.toml`, 'utf8'));
      expect(config).toMatchObject({ model_provider: 'scripted', model_providers: { scripted: { base_url: box.model.url } }, features: { plugins: true, unbounded_connection_retries: false }, mcp_servers: { forms: { command: 'node' } } });
      const reply = await fetch(`${box.model.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream: true, input: [] }) });
      expect(reply.status).toBe(200);
      expect(await reply.text()).toContain('hi');
    } finally {
      await box.dispose();
    }
    expect(existsSync(box.root)).toBe(false);
    await expect(fetch(`${box.model.url}/responses`, { method: 'POST' })).rejects.toThrow();
  });

  it('lays the directories out as asked and runs the test clean-ups first, last registered first', async () => {
    const box = await startCodexSandbox({ script: [], layout: { codexHome: 'executor/codex', home: 'user' } });
    const order: string[] = [];
    box.onDispose(() => void order.push(`first ${existsSync(box.root)}`));
    box.onDispose(() => void order.push('second'));
    expect(box.codexHome).toBe(box.path('executor/codex'));
    expect(box.home).toBe(box.path('user'));
    await box.dispose();
    expect(order).toEqual(['second', 'first true']);
    expect(existsSync(box.root)).toBe(false);
  });

  it('cleans up everything even when a clean-up fails, and says so', async () => {
    const box = await startCodexSandbox({ script: [] });
    box.onDispose(() => Promise.reject(new Error('stuck')));
    await expect(box.dispose()).rejects.toThrow('not cleaned up completely');
    expect(existsSync(box.root)).toBe(false);
  });
});

describe('writeCodexConfig', () => {
  it('selects the scripted model, fail-fast, with the test keys merged over it', async () => {
    const codexHome = await mkdtemp(join(tmpdir(), 'test-support-config-'));
    try {
      const path = await writeCodexConfig(codexHome, 'http://127.0.0.1:9/v1', { model: { model: 'slug' }, config: { chatgpt_base_url: 'http://127.0.0.1:9', features: { plugins: true } } });
      expect(path).toBe(join(codexHome, 'config.toml'));
      expect(parseToml(await readFile(path, 'utf8'))).toEqual({
        model_provider: 'scripted',
        model: 'slug',
        model_providers: { scripted: expect.objectContaining({ base_url: 'http://127.0.0.1:9/v1', request_max_retries: 0, stream_max_retries: 0 }) },
        chatgpt_base_url: 'http://127.0.0.1:9',
        features: { plugins: true, unbounded_connection_retries: false },
      });
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(codexHome, { recursive: true, force: true });
    }
  });
});
