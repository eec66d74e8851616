/**
 * Browser-test support: the web demo (`webDemo.js --script FILE`: the real executor serving the web
 * host, the real app-server, the sample forms plugin, the scripted model) and Debian's Chromium
 * driven by `playwright-core` (never a downloaded browser), with a fresh profile per test file. Each
 * test file records every process it started (the browser's and the executor's trees) and proves at
 * the end that none of them is left.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isRunning, listProcesses, treeOf, type ProcessIdentity } from '@wework/app-server-client/node';
import { encodeScript, type Script } from '@wework/scripted-model';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, expect } from 'vitest';

/** Debian's Chromium. */
export const CHROMIUM = '/usr/bin/chromium';
/** The switches the browser runs with: headless, no sandbox (CI runs as root), nothing that calls home. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const here = dirname(fileURLToPath(import.meta.url));
/** Where screenshots go (git-ignored): one folder per test file. */
export const ARTIFACTS = join(here, '..', '..', 'test-artifacts');
/** The web demo of the built desktop executor (the web host's test target builds it first). */
const WEB_DEMO = join(here, '..', '..', '..', 'desktop-executor', 'dist', 'webDemo.js');

/**
 * Whether the browser tests run: they do when Chromium is installed; without it they are skipped
 * with a message — except in CI (`CI` is set, as `.ci/run` does), where a missing browser fails.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env['CI'] !== undefined && process.env['CI'] !== '') throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium package (.ci/run does)`);
  console.warn(`Skipping the browser tests: ${CHROMIUM} is not installed (apt-get install -y chromium).`);
  return false;
}

/** A running web demo. */
export interface WebDemo {
  readonly url: string;
  readonly workspace: string;
  /** The Codex home of the demo's executor (`config.toml` is there): the web demo lays out `executor/codex` beside the workspace. */
  readonly codexHome: string;
  readonly pid: number;
  readonly stderr: () => string;
  /** Stops the demo (SIGTERM: the executor, its app-server and plugins, the model) and waits for it to exit. */
  readonly stop: () => Promise<void>;
}

/** Starts the web demo with `script` (and more of its switches, such as `--record FILE`); resolves once it printed its address. */
export async function startWebDemo(script: Script, root: string, extraArgs: ReadonlyArray<string> = []): Promise<WebDemo> {
  const scriptPath = join(root, 'script.json');
  await writeFile(scriptPath, JSON.stringify(encodeScript(script)));
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [WEB_DEMO, '--script', scriptPath, ...extraArgs], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString('utf8')).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const announced = await new Promise<{ url: string; workspace: string }>((resolve, reject) => {
    let workspace = '';
    const timer = setTimeout(() => reject(new Error(`the web demo did not print its address:\n${stderr}`)), 120_000);
    child.once('exit', (code) => reject(new Error(`the web demo exited (${code}):\n${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('Workspace: ')) workspace = line.slice('Workspace: '.length);
      const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/.exec(line)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve({ url, workspace });
      }
    });
  });
  return {
    ...announced,
    codexHome: join(dirname(announced.workspace), 'executor', 'codex'),
    pid: child.pid ?? -1,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A browser with one page, and its screenshots. */
export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Saves a full-page screenshot as `<name>.png` in this file's artifacts folder. */
  readonly screenshot: (name: string) => Promise<void>;
  readonly close: () => Promise<void>;
}

/** Opens Chromium with a new empty profile under `root`. */
export async function openBrowser(root: string, artifacts: string): Promise<Browser> {
  const profile = join(root, 'chromium-profile');
  await mkdir(profile, { recursive: true });
  await rm(artifacts, { recursive: true, force: true });
  await mkdir(artifacts, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1100, height: 900 } });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    screenshot: async (name) => void (await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true })),
    close: () => context.close(),
  };
}

/** The identities of every process descending from this test process (the browser's and the demo's trees). */
export async function startedProcesses(): Promise<ReadonlyArray<ProcessIdentity>> {
  const processes = await listProcesses();
  return treeOf(process.pid, -1, processes)
    .filter((p) => p.pid !== process.pid)
    .map((p) => ({ pid: p.pid, startTime: p.startTime }));
}

/** The processes of `identities` that still run, after waiting up to 10 s for them to go. */
export async function stillRunning(identities: ReadonlyArray<ProcessIdentity>): Promise<ReadonlyArray<number>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const running: number[] = [];
    for (const identity of identities) if (await isRunning(identity)) running.push(identity.pid);
    if (running.length === 0 || Date.now() > deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A fresh temporary directory for one test file. */
export const tempRoot = (): Promise<string> => mkdtemp(join(tmpdir(), 'web-host-browser-'));

/**
 * Calls a host method on a second connection of the page (the launch token from `url`), as another
 * host window would; resolves with the JSON-RPC reply (`result` or `error`).
 */
export async function hostCall(page: Page, url: string, method: string, params: unknown): Promise<{ readonly result?: unknown; readonly error?: { readonly code: number; readonly message: string } }> {
  const token = decodeURIComponent(/[#&]token=([^&]+)/.exec(url)?.[1] ?? '');
  return page.evaluate(
    ({ token, method, params }) =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(`ws://${location.host}/`, [token]);
        const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 120_000);
        socket.onopen = () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { id?: unknown };
          if (message.id !== 1) return;
          clearTimeout(timer);
          socket.close();
          resolve(message as never);
        };
        socket.onerror = () => reject(new Error('the second connection failed'));
      }),
    { token, method, params },
  );
}

/** What a browser test file started, read when its hooks run. */
export interface BrowserTestFixture {
  readonly root: string;
  readonly demo: WebDemo | undefined;
  readonly browser: Browser | undefined;
}

/** The chat as the browser tests drive it. */
export interface ChatPage {
  /** The card on screen (the last one shown). */
  readonly card: () => Locator;
  /** The completed result of the last call of a forms plugin tool, as the transcript shows it (waits at most 60 s). */
  readonly lastToolResult: (tool: string) => Promise<string>;
  /** Pastes `markdown` into the composer (its mentions arrive as mentions) and sends it. */
  readonly send: (markdown: string) => Promise<void>;
  /** Waits (at most 60 s) until the turn's status reads Done. */
  readonly turnDone: () => Promise<void>;
}

/** {@link ChatPage} over the page `page()` returns (a test file opens its page in `beforeAll`). */
export function chatPage(page: () => Page): ChatPage {
  return {
    card: () => page().locator('section.card').last(),
    lastToolResult: async (tool) => {
      const entry = page().locator('li.entry-tool', { hasText: `forms.${tool}` }).last();
      await expect.poll(() => entry.getAttribute('data-status'), { timeout: 60_000 }).toBe('completed');
      await entry.locator('summary').click();
      return entry.locator('pre.detail').innerText();
    },
    send: async (markdown) => {
      await page().getByLabel('Message').click();
      await page().evaluate((text) => {
        const editor = document.getElementById('composer-input') as HTMLElement;
        const data = new DataTransfer();
        data.setData('text/plain', text);
        editor.dispatchEvent(new InputEvent('beforeinput', { inputType: 'insertFromPaste', dataTransfer: data, cancelable: true, bubbles: true }));
      }, markdown);
      await page().getByRole('button', { name: 'Send' }).click();
    },
    turnDone: () => expect.poll(() => page().locator('p.turn-status').innerText(), { timeout: 60_000 }).toBe('Done'),
  };
}

/** Waits (at most 30 s) until the page says it is connected to the executor: after a load or a reload. */
export async function whenConnected(page: Page): Promise<void> {
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 30_000 });
}

/**
 * Registers the hooks every browser test file shares: after a failed step, a screenshot and the
 * executor's log (no secrets: the log never holds the token) in `artifacts`; after the file, the browser
 * and the demo are stopped, every process the file started is proven gone, and its temporary root removed.
 */
export function browserTestHooks(run: boolean, fixture: () => BrowserTestFixture, artifacts: string): void {
  afterAll(async () => {
    if (!run) return;
    const { root, demo, browser } = fixture();
    // Every process this file started: the browser's tree and the executor's (app-server and plugins included).
    const started: ReadonlyArray<ProcessIdentity> = await startedProcesses();
    await browser?.close();
    await demo?.stop();
    expect(await stillRunning(started)).toEqual([]);
    if (root !== '') await rm(root, { recursive: true, force: true });
  });
  afterEach(async (context) => {
    if (!run || context.task.result?.state !== 'fail') return;
    const { demo, browser } = fixture();
    const name = context.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-');
    await browser?.screenshot(`failed-${name}`);
    await writeFile(join(artifacts, `failed-${name}.log`), demo?.stderr() ?? '');
  });
}
