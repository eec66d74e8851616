/**
 * The web host in Debian's Chromium (`playwright-core`, headless) against the real executor
 * (`webDemo.js --script`: `serve.js --ws --ui`, the real app-server, the sample forms plugin and the
 * scripted model), timed inside the page:
 * - first meaningful paint of the chat: from the navigation's start to the first frame painted after
 *   the chat shows "Connected" (the launch read, the socket open, the executor answered), each load in a
 *   new browser context (no cache); goal ≤ 1 s (median; p90 printed too);
 * - card latency: from the moment the page receives the executor's `card/show` frame to the first frame
 *   painted with the card in it; goal ≤ 50 ms. On loopback the frame arrives well under a millisecond
 *   after the executor wrote it, so this is the executor-send-to-screen time as the user sees it.
 * Skipped with a note when Chromium is not installed.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium, type Page } from 'playwright-core';
import { callTool, encodeScript, respond, say } from '@wework/scripted-model';
import { summarize } from './stats.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const PAINT_RUNS = Number(process.env['BENCH_WEB_PAINT_RUNS'] ?? 15);
const CARD_RUNS = Number(process.env['BENCH_WEB_CARD_RUNS'] ?? 12);
const PAINT_GOAL_MS = 1000;
const CARD_GOAL_MS = 50;

/** Installed into every page before its scripts: timestamps of the connection and of each card, browser-side. */
const INSTRUMENT = `(() => {
  const marks = { connectedPainted: null, cardReceived: [], cardPainted: [] };
  window.__webHostBench = marks;
  const afterPaint = (record) => requestAnimationFrame(() => setTimeout(() => record(performance.now()), 0));
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.includes('"method":"card/show"')) marks.cardReceived.push(performance.now());
      });
    }
  };
  let connectedSeen = false;
  new MutationObserver((records) => {
    if (!connectedSeen) {
      const status = document.querySelector('[role=status]');
      if (status !== null && status.textContent.includes('Connected')) {
        connectedSeen = true;
        afterPaint((t) => (marks.connectedPainted = t));
      }
    }
    for (const record of records) for (const node of record.addedNodes) {
      if (node.nodeType === 1 && (node.matches('section.card') || node.querySelector('section.card') !== null)) afterPaint((t) => marks.cardPainted.push(t));
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

interface Marks {
  readonly connectedPainted: number | null;
  readonly cardReceived: ReadonlyArray<number>;
  readonly cardPainted: ReadonlyArray<number>;
}

/** The page's globals the bench reads (this package is compiled without the DOM's types). */
interface PageGlobals {
  readonly __webHostBench: Marks;
  readonly document: { querySelector(selector: string): unknown };
}
const marksOf = (page: Page): Promise<Marks> => page.evaluate(() => (globalThis as unknown as PageGlobals).__webHostBench);

/** Starts the web demo with `cards` strategy-form turns; resolves with its address and a stop. */
async function startWebDemo(root: string, cards: number): Promise<{ readonly url: string; readonly stop: () => Promise<void> }> {
  const webDemo = join(dirname(createRequire(import.meta.url).resolve('@wework/desktop-executor/package.json')), 'dist', 'webDemo.js');
  const script = Array.from({ length: cards }, () => [respond(callTool('forms', 'choose_strategy')), respond(say('Done.'))]).flat();
  const scriptPath = join(root, 'script.json');
  await writeFile(scriptPath, JSON.stringify(encodeScript(script)));
  const child = spawn(process.execPath, [webDemo, '--script', scriptPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString('utf8')).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the web demo did not print its address:\n${stderr}`)), 120_000);
    child.once('exit', (code) => reject(new Error(`the web demo exited (${code}):\n${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const found = /^\s+(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/.exec(line)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const verdict = (median: number, goal: number): string => (median <= goal ? 'met' : 'NOT met');
const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** Runs both measurements; returns the lines to print. */
export async function benchWebHost(): Promise<string[]> {
  if (!existsSync(CHROMIUM)) return [`web host: skipped (${CHROMIUM} is not installed: apt-get install chromium)`];
  const root = await mkdtemp(join(tmpdir(), 'wework-bench-web-'));
  const demo = await startWebDemo(root, CARD_RUNS + 1);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    // First meaningful paint: each load cold, in a context of its own (one warm-up load first).
    const paints: number[] = [];
    for (let run = 0; run <= PAINT_RUNS; run += 1) {
      const context = await browser.newContext();
      await context.addInitScript({ content: INSTRUMENT });
      const page = await context.newPage();
      await page.goto(demo.url);
      await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__webHostBench.connectedPainted !== null, undefined, { timeout: 30_000 });
      const marks = await marksOf(page);
      if (run > 0 && marks.connectedPainted !== null) paints.push(marks.connectedPainted);
      await context.close();
    }
    // Card latency: one page, one task, a strategy form per message (answered, then the next).
    const context = await browser.newContext();
    await context.addInitScript({ content: INSTRUMENT });
    const page = await context.newPage();
    await page.goto(demo.url);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'New task' }).click();
    for (let run = 0; run <= CARD_RUNS; run += 1) {
      await page.getByLabel('Message').fill(`strategy ${run}`);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForFunction((count) => (globalThis as unknown as PageGlobals).__webHostBench.cardPainted.length > count, run, { timeout: 60_000 });
      await page.locator('section.card').last().getByRole('button', { name: 'Safe' }).click();
      await page.locator('p.turn-status', { hasText: 'Done' }).last().waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelector('section.card') === null, undefined, { timeout: 30_000 });
    }
    const marks = await marksOf(page);
    await context.close();
    const latencies = marks.cardPainted.map((painted, index) => painted - (marks.cardReceived[index] ?? Number.NaN)).slice(1);
    const paint = summarize(paints);
    const card = summarize(latencies);
    return [
      `web host first meaningful paint (navigation start → first frame after "Connected", cold context, n=${paint.n}): median ${ms(paint.median)}, p90 ${ms(paint.p90)} (goal ≤ ${PAINT_GOAL_MS} ms: ${verdict(paint.median, PAINT_GOAL_MS)})`,
      `web host card latency (card/show frame received → first frame with the card, n=${card.n}): median ${ms(card.median)}, p90 ${ms(card.p90)} (goal ≤ ${CARD_GOAL_MS} ms: ${verdict(card.median, CARD_GOAL_MS)})`,
    ];
  } finally {
    await browser.close();
    await demo.stop();
    await rm(root, { recursive: true, force: true });
  }
}
