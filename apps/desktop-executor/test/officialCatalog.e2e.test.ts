/**
 * The official catalog's cache in a real executor (in process, its real app-server signed in with a
 * made-up ChatGPT login, `chatgpt_base_url` on a loopback plugin backend) with a fake clock and the
 * upstream fetch wrapped to count and hold its calls: concurrent reads share one fetch; expiry alone
 * fetches nothing, the next opening of the tab does; an installation-like local refresh does not
 * invalidate; an account change (auth.json replaced and the app-server restarted, as `accounts/switch`
 * does) rejects the response still in flight.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostErrorCode } from '@wework/host-protocol';
import type { FetchCatalog } from '@wework/plugin-inventory';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { startExecutor, type Executor } from '../src/host/startExecutor.js';
import { codexOfficialFetch, type OfficialCatalogValue, type OfficialFetchError } from '../src/plugins/OfficialCatalog.js';
import type { LogEntry } from '@wework/ports';
import type { RuntimeSupervisor } from '../src/runtime/RuntimeSupervisor.js';
import { chatgptAuthJson, until, writeCodexConfig } from '@wework/test-support';
import { fakeClock } from './support/fakeClock.js';

const OFFICIAL = 'openai-curated-remote';

interface Held {
  readonly force: boolean;
  release(): void;
}

let root: string;
let server: Server;
let model: ScriptedModel;
let executor: Executor;
const clock = fakeClock(1_700_000_000_000);
const log: LogEntry[] = [];
const calls: Held[] = [];
/** When set, each fetch waits until the test releases it. */
let hold = false;
const box: { runtime?: RuntimeSupervisor } = {};

/** Codex's real fetch, counted, and held while `hold` is set. */
const countedFetch: FetchCatalog<OfficialFetchError, OfficialCatalogValue> = async (key, options) => {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  calls.push({ force: options.force, release });
  if (!hold) release();
  await released;
  if (box.runtime === undefined) throw new Error('no runtime');
  return codexOfficialFetch(box.runtime, () => undefined)(key, options);
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'executor-official-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const page = (plugins: unknown[]) => JSON.stringify({ plugins, pagination: { next_page_token: null } });
    const item = { id: 'plugins~p', name: 'gmail', scope: 'GLOBAL', installation_policy: 'AVAILABLE', authentication_policy: 'ON_USE', status: 'AVAILABLE', release: { version: '1.0.0', display_name: 'Gmail', description: 'Mail', app_ids: [], interface: { short_description: 'Mail', capabilities: [] }, skills: [] } };
    response.writeHead(200, { 'content-type': 'application/json' }).end(path.endsWith('/ps/plugins/list') ? page([item]) : path.includes('/ps/plugins/') ? page([]) : path.endsWith('/plugins/featured') ? '[]' : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  model = await startScriptedModel({ script: [] });
  await writeCodexConfig(join(dirs.executorHome, 'codex'), model.url, { config: { chatgpt_base_url: `${url}/backend-api`, features: { plugins: true } } });
  await writeFile(join(dirs.executorHome, 'codex', 'auth.json'), chatgptAuthJson({ email: 'ada@example.com', accountId: 'acc-ada', userId: 'user-ada' }), { mode: 0o600 });
  const started = await startExecutor({ ...dirs, env: process.env, log: (entry) => log.push(entry), waitForPlugins: [], clock, officialCatalogFetch: countedFetch });
  if (E.isLeft(started)) throw new Error(started.left);
  executor = started.right;
  box.runtime = executor.runtime;
}, 120_000);

afterAll(async () => {
  await executor?.dispose();
  await model?.close();
  server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

const openTab = () => executor.request('plugins/catalog', { marketplace: OFFICIAL });

describe('the official catalog cache in a real executor', () => {
  it('shares one fetch between concurrent reads and serves the cache for 60 s', async () => {
    const reads = await Promise.all([openTab(), openTab(), openTab()]);
    for (const read of reads) expect(read).toMatchObject({ right: { marketplace: OFFICIAL, plugins: [{ pluginId: `gmail@${OFFICIAL}` }] } });
    expect(calls).toHaveLength(1);
    const cachedUntil = E.isRight(reads[0]!) ? reads[0].right.cachedUntil : null;
    expect(cachedUntil).toBe(clock.now() + 60_000);
    clock.advance(59_000);
    // A custom marketplace refresh and the list do not invalidate it.
    await executor.request('marketplaces/list', {});
    expect(await openTab()).toMatchObject({ right: { cachedUntil } });
    expect(calls).toHaveLength(1);
  });

  it('fetches nothing when it expires; the next opening of the tab fetches once', async () => {
    clock.advance(10_000);
    // Expired, and time keeps passing: nothing asks, nothing is fetched.
    await new Promise((resolve) => setTimeout(resolve, 300));
    clock.advance(120_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toHaveLength(1);
    expect(await openTab()).toMatchObject({ right: { cachedUntil: clock.now() + 60_000 } });
    expect(calls).toHaveLength(2);
    expect(calls.map((call) => call.force)).toEqual([false, false]);
  });

  it('an account change rejects the response still in flight; the new account’s read fetches anew', async () => {
    clock.advance(61_000);
    hold = true;
    const inFlight = openTab();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toHaveLength(3);
    // What accounts/switch does: another auth.json, then the app-server restarted.
    await writeFile(join(root, 'executor', 'codex', 'auth.json'), chatgptAuthJson({ email: 'grace@example.com', accountId: 'acc-grace', userId: 'user-grace' }), { mode: 0o600 });
    const restarted = await executor.runtime.restart();
    expect(E.isRight(restarted)).toBe(true);
    hold = false;
    const fresh = openTab();
    // The new account's read has switched the cache to its key once its own fetch began; only then does
    // the old response arrive (released earlier, it could come back before that read had computed its key).
    await until('the fourth catalog fetch', () => calls.length >= 4, 10_000);
    expect(calls).toHaveLength(4);
    calls[2]?.release();
    expect(await inFlight).toMatchObject({ left: { code: HostErrorCode.CatalogUnavailable, message: expect.stringContaining('Superseded') } });
    expect(await fresh).toMatchObject({ right: { plugins: [{ pluginId: `gmail@${OFFICIAL}` }] } });
    expect(calls).toHaveLength(4);
  });

  it('the refresh button refetches with force while the cache is fresh', async () => {
    expect(await executor.request('marketplaces/refresh', { name: OFFICIAL })).toMatchObject({ right: { plugins: 1, marketplace: { name: OFFICIAL, kind: 'official', editable: false } } });
    expect(calls.at(-1)?.force).toBe(true);
    expect(calls).toHaveLength(5);
  });
});
