/**
 * A plugin's link to open (URL-mode elicitation) in the web host, in Debian's Chromium against the real
 * executor, app-server, forms plugin (`connect_account`) and scripted model: the card shows the message and
 * the link's scheme and host; nothing opens until the user clicks Open, which opens the link in a new tab
 * without an opener and answers accept. A second request is declined from the card.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool, respond, say } from '@wework/scripted-model';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserAvailable, browserTestHooks, chatPage, openBrowser, startWebDemo, tempRoot, type Browser, type WebDemo, whenConnected } from './support/webHost.js';

const SCRIPT = [
  respond(callTool('forms', 'connect_account')),
  respond(say('Connected.')),
  respond(callTool('forms', 'connect_account')),
  respond(say('Not connected.')),
];

const run = browserAvailable();
let root = '';
let demo: WebDemo | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  if (!run) return;
  root = await tempRoot();
  demo = await startWebDemo(SCRIPT, root);
  browser = await openBrowser(root, join(ARTIFACTS, 'browser-url'));
  page = browser.page;
  // The sign-in page is served by the test: the browser never leaves this machine.
  await browser.context.route('https://auth.example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Sign in</title><p>Signed in</p>' }));
  await page.goto(demo.url);
  await whenConnected(page);
});

browserTestHooks(run, () => ({ root, demo, browser }), join(ARTIFACTS, 'browser-url'));

const { card, lastToolResult, send, turnDone } = chatPage(() => page);

describe.skipIf(!run)('a plugin’s link to open, in Chromium', () => {
  it('shows the message, scheme and host; opens the link only on Open, in a new tab without an opener; the plugin gets accept', async () => {
    const context = browser?.context;
    if (context === undefined) throw new Error('no browser');
    await page.getByRole('button', { name: 'New task' }).click();
    await send('Use [@Forms](plugin://forms@local-market) to connect my account');
    await expect.poll(() => card().getByRole('heading').innerText(), { timeout: 60_000 }).toBe('Sign in to connect your account');
    expect(await card().getAttribute('class')).toContain('card-url');
    expect(await card().locator('.url-host').innerText()).toBe('auth.example.com');
    expect(await card().locator('.url-scheme').innerText()).toBe('https (secure)');
    expect(await card().getByRole('button').allInnerTexts()).toEqual(['Open', 'Decline', 'Cancel']);
    // The address itself is not a link on the page, and nothing was opened yet.
    expect(await card().locator('a').count()).toBe(0);
    expect(context.pages()).toHaveLength(1);
    await page.screenshot({ path: join(ARTIFACTS, 'browser-url', 'url-card.png') });

    const opened = context.waitForEvent('page');
    await card().getByRole('button', { name: 'Open' }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe('https://auth.example.com/connect?client=wework-forms-plugin');
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
    expect(await lastToolResult('connect_account')).toContain('elicitation: accept');
    await turnDone();
  });

  it('Decline answers the plugin with decline and opens nothing', async () => {
    const context = browser?.context;
    if (context === undefined) throw new Error('no browser');
    await send('Use [@Forms](plugin://forms@local-market) to connect my account again');
    // The answered card left the transcript; the new request is the one card on screen.
    await expect.poll(() => page.locator('section.card-url').count(), { timeout: 60_000 }).toBe(1);
    const pages = context.pages().length;
    await card().getByRole('button', { name: 'Decline' }).click();
    expect(await lastToolResult('connect_account')).toContain('elicitation: decline');
    expect(context.pages()).toHaveLength(pages);
    await turnDone();
  });
});
