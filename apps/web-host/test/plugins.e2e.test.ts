/**
 * The Plugins page in a real browser: Debian's Chromium (playwright-core) against the real executor
 * (`serve.js --ws --ui`, started by the web demo with plugins on), the real app-server and a local
 * marketplace directory written by the test. The user reaches the page by keyboard, sees the welcome
 * state, adds the marketplace by its source (a wrong source first, answered with a sentence to act on),
 * sees its catalog, opens a plugin's details (description and components), installs it, switches its
 * skill off and on, tries it in chat (the composer holds the plugin mention), and uninstalls it. Then
 * two more marketplaces are added and the last one is moved up twice by keyboard (the focus stays on
 * its buttons; the executor's list and a reload keep the order), and the remote Apps / Connectors
 * switch is flipped off and on (the executor reads it back and Codex's `config.toml` holds it). Last, a
 * plugin whose connector signs in by QR code on install (its own login bridge, run by the executor): the
 * sign-in shows the bridge's code, drawn and as text; closing it rolls the install back; installing again
 * and "scanning" (the bridge's `poll` answers signed in once a marker file exists) installs it. Then a
 * plugin whose connector signs in in the browser: its login command serves a sign-in page on a local
 * port; closing the sign-in ends that command (the page stops answering) and rolls the install back;
 * installing again and authorizing in a second browser tab installs it. Each state is saved as a
 * screenshot under `test-artifacts/plugins/`.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
// `jsqr` is CommonJS: its module object carries the decoder as `default`.
import jsqr from 'jsqr';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import { respond, say } from '@wework/scripted-model';
import type { Locator, Page } from 'playwright-core';
import { writeLocalMarketplace, type FixturePlugin } from '@wework/test-support';
import { ARTIFACTS, browserAvailable, browserTestHooks, hostCall, openBrowser, startWebDemo, tempRoot, type Browser, type WebDemo, whenConnected } from './support/webHost.js';

/** A plugin of a shelf: its skills, `plugin.json`'s `interface` and more fields, and executable files (a login bridge). */
interface ShelfPlugin extends Pick<FixturePlugin, 'name' | 'description' | 'skills' | 'manifest'> {
  readonly interface?: Readonly<Record<string, unknown>>;
  readonly files?: Readonly<Record<string, string>>;
}

/** Writes marketplace `name` (shown as `displayName`) with `plugins` into `root`; answers `root`, what a user adds as the source. */
async function writeShelf(root: string, name: string, displayName: string, plugins: ReadonlyArray<ShelfPlugin>): Promise<string> {
  await writeLocalMarketplace(root, {
    name,
    interface: { displayName },
    plugins: plugins.map((plugin) => ({
      name: plugin.name,
      ...(plugin.description === undefined ? {} : { description: plugin.description }),
      ...(plugin.skills === undefined ? {} : { skills: plugin.skills }),
      manifest: { ...(plugin.interface === undefined ? {} : { interface: plugin.interface }), ...plugin.manifest },
      entry: { category: 'Productivity' },
      files: Object.fromEntries(Object.entries(plugin.files ?? {}).map(([path, text]) => [path, { text, mode: 0o755 }])),
    })),
  });
  return root;
}

const run = browserAvailable();
const OUT = join(ARTIFACTS, 'plugins');
let root = '';
let market = '';
let design = '';
let ops = '';
let signin = '';
let scanned = '';
let oauth = '';
let openedUrl = '';
let authorized = '';
let demo: WebDemo | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  if (!run) return;
  root = await tempRoot();
  market = await writeShelf(join(root, 'market-team'), 'team', 'Team shelf', [
    {
      name: 'notes',
      description: 'Keeps notes of the work.',
      skills: [{ name: 'jot', description: 'Jot a note down' }],
      interface: { displayName: 'Notes', shortDescription: 'Notes for the team', longDescription: 'Notes keeps short notes of what the team decided.', defaultPrompt: ['Jot down what we decided'] },
    },
    { name: 'tools', description: 'Tools of the team.', skills: [{ name: 'hammer', description: 'Hit things' }] },
  ]);
  design = await writeShelf(join(root, 'market-design'), 'design', 'Design shelf', [{ name: 'sketch', description: 'Sketches.', skills: [{ name: 'draw', description: 'Draw a sketch' }] }]);
  ops = await writeShelf(join(root, 'market-ops'), 'ops', 'Ops shelf', [{ name: 'pager', description: 'Pages people.', skills: [{ name: 'page', description: 'Page someone' }] }]);
  // A connector that signs in by QR code when the plugin is installed. Its bridge reports the device
  // logged in, and a running login finished, once the marker file exists (the code was "scanned").
  scanned = join(root, 'scanned');
  const bridge = `import { existsSync } from 'node:fs';
const print = (status) => process.stdout.write(JSON.stringify(status) + '\\n');
const signedIn = existsSync(${JSON.stringify(scanned)});
const command = process.argv[2];
if (command === 'health') print(signedIn ? { status: 'ok', account: 'Ada' } : { status: 'needs_login' });
else if (command === 'poll' && signedIn) print({ status: 'ok', account: 'Ada' });
else print({ status: 'pending', qr: { payload: ${JSON.stringify(QR_PAYLOAD)} } });
`;
  signin = await writeShelf(join(root, 'market-signin'), 'signin', 'Sign-in shelf', [
    {
      name: 'chat',
      description: 'Posts to the team chat.',
      skills: [{ name: 'post', description: 'Post to the team chat' }],
      interface: { displayName: 'Team chat', shortDescription: 'The team chat' },
      manifest: { connectors: [{ slug: 'team-chat', localAuth: { type: 'local_qr', authPolicy: 'on_install', health: ['bin/bridge.mjs', 'health'], start: ['bin/bridge.mjs', 'start'], poll: ['bin/bridge.mjs', 'poll'] } }] },
      files: { 'bin/bridge.mjs': bridge },
    },
  ]);
  // A connector that signs in in the browser when the plugin is installed. Its login command serves the
  // sign-in page on a local port and "opens the browser" by writing the address to a file (the test opens
  // it in a second tab); the page's Authorize button ends the command signed in.
  openedUrl = join(root, 'opened-url');
  authorized = join(root, 'authorized');
  const oauthBridge = `import { createServer } from 'node:http';
import { existsSync, writeFileSync } from 'node:fs';
const print = (status, then) => process.stdout.write(JSON.stringify(status) + '\\n', then);
const command = process.argv[2];
if (command === 'health') print(existsSync(${JSON.stringify(authorized)}) ? { status: 'ok', account: 'Grace' } : { status: 'needs_login' });
else {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (request.method !== 'POST') return response.end('<title>Team docs sign-in</title><form method="post" action="/authorize"><button>Authorize Wework</button></form>');
    writeFileSync(${JSON.stringify(authorized)}, '');
    response.end('<title>Team docs sign-in</title><p>Signed in. You can close this window.</p>', () => print({ status: 'ok', account: 'Grace' }, () => process.exit(0)));
  });
  server.listen(0, '127.0.0.1', () => writeFileSync(${JSON.stringify(openedUrl)}, 'http://127.0.0.1:' + server.address().port + '/'));
}
`;
  oauth = await writeShelf(join(root, 'market-oauth'), 'oauth', 'Browser sign-in shelf', [
    {
      name: 'docs',
      description: 'Reads the team docs.',
      skills: [{ name: 'lookup', description: 'Look a doc up' }],
      interface: { displayName: 'Team docs', shortDescription: 'The team docs' },
      manifest: { connectors: [{ slug: 'team-docs', localAuth: { type: 'browser_oauth', authPolicy: 'on_install', health: ['bin/bridge.mjs', 'health'], start: ['bin/bridge.mjs', 'start'] } }] },
      files: { 'bin/bridge.mjs': oauthBridge },
    },
  ]);
  demo = await startWebDemo([respond(say('Noted.'))], root);
  browser = await openBrowser(root, OUT);
  page = browser.page;
  await page.goto(demo.url);
  await whenConnected(page);
});

browserTestHooks(run, () => ({ root, demo, browser }), OUT);

const catalogPlugin = (pluginId: string): Locator => page.locator(`li.catalog-plugin[data-plugin-id="${pluginId}"]`);
const details = (): Locator => page.locator('section.details');
const installedEntry = (pluginId: string): Locator => page.locator(`li.installed-plugin[data-plugin-id="${pluginId}"]`);
const skillSwitch = (): Locator => installedEntry('notes@team').getByRole('switch', { name: 'notes:jot' });
const marketplaceOrder = (): Promise<ReadonlyArray<string>> => page.locator('li.marketplace .marketplace-name').allInnerTexts();
const focusedLabel = (): Promise<string | null> => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
/** The marketplaces' names as a fresh `marketplaces/list` of the executor answers them. */
async function listedNames(): Promise<ReadonlyArray<string>> {
  const listed = await hostCall(page, demo?.url ?? '', 'marketplaces/list', {});
  return (listed.result as { marketplaces: ReadonlyArray<{ name: string }> }).marketplaces.map((m) => m.name);
}
/** `[features] apps` of the Codex config of the test's executor home. */
async function configuredApps(): Promise<unknown> {
  const config = parseToml(await readFile(join(demo?.codexHome ?? '', 'config.toml'), 'utf8')) as { features?: { apps?: unknown } };
  return config.features?.apps;
}
/** The payload the connector's login bridge prints for its QR code. */
const QR_PAYLOAD = 'https://login.example.com/qr/team-chat?device=web-host';
const login = (): Locator => page.locator('section.logins li.login');
const qrCode = (): Locator => login().getByRole('img', { name: 'QR code to sign in to team-chat' });
/** Whether `plugins/installed` of the executor (a fresh read on a second connection) lists `pluginId`. */
async function executorHas(pluginId: string): Promise<boolean> {
  const inventory = await hostCall(page, demo?.url ?? '', 'plugins/installed', {});
  return (inventory.result as { plugins: ReadonlyArray<{ pluginId: string }> }).plugins.some((p) => p.pluginId === pluginId);
}
/** What the QR code drawn on the page reads as: a screenshot of it, decoded (the browser decodes the PNG, `jsqr` the code). */
async function scanQrCode(): Promise<string | undefined> {
  const png = await qrCode().screenshot();
  const image = await page.evaluate(async (base64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${base64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d');
    context?.drawImage(img, 0, 0);
    const data = context?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
    return { width: canvas.width, height: canvas.height, data: Array.from(data) };
  }, png.toString('base64'));
  return jsqr.default(Uint8ClampedArray.from(image.data), image.width, image.height)?.data;
}
/** Adds the marketplace at `source`, opens the details of its plugin, checks its connector's line and installs it. */
async function addAndInstall(to: { source: string; shelf: string; pluginId: string; plugin: string; connector: string }): Promise<void> {
  await page.getByLabel('Marketplace source').fill(to.source);
  await page.getByRole('button', { name: 'Add marketplace' }).click();
  await expect.poll(() => page.locator('.notice-info p').innerText(), { timeout: 60_000 }).toBe(`Added: ${to.shelf}.`);
  await page.locator('.notice-info').getByRole('button', { name: 'Dismiss' }).click();
  await expect.poll(() => catalogPlugin(to.pluginId).count(), { timeout: 30_000 }).toBe(1);
  await page.getByRole('button', { name: `Details of ${to.plugin}` }).click();
  await expect.poll(() => details().locator('.components').innerText(), { timeout: 30_000 }).toContain(to.connector);
  await details().getByRole('button', { name: `Install ${to.plugin}` }).click();
}
/** The address the browser sign-in's login command "opened" (written once its page listens). */
async function signInUrl(): Promise<string> {
  await expect.poll(() => readFile(openedUrl, 'utf8').then((text) => text, () => ''), { timeout: 30_000 }).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  return readFile(openedUrl, 'utf8');
}
const remoteApps = (): Locator => page.getByRole('switch', { name: 'Remote Apps / Connectors' });

describe.skipIf(!run)('the Plugins page in Chromium', () => {
  it('is reached by keyboard from the navigation and shows the welcome state when there is no marketplace', async () => {
    const nav = page.getByRole('navigation', { name: 'Pages' });
    expect(await nav.getByRole('link', { name: 'Chat' }).getAttribute('aria-current')).toBe('page');
    await nav.getByRole('link', { name: 'Chat' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Plugins');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    expect(await nav.getByRole('link', { name: 'Plugins' }).getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.locator('.welcome').innerText(), { timeout: 30_000 }).toContain('No marketplace is added yet.');
    await browser?.screenshot('1-welcome');
  });

  it('answers a wrong source with a sentence to act on, then adds the local marketplace and shows its catalog', async () => {
    await page.getByLabel('Marketplace source').fill(join(root, 'nowhere'));
    await page.getByRole('button', { name: 'Add marketplace' }).click();
    const alert = page.locator('.notice-error');
    await expect.poll(() => alert.innerText(), { timeout: 30_000 }).toContain('Adding the marketplace failed');
    await browser?.screenshot('2-add-refused');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByLabel('Marketplace source').fill(market);
    await page.getByRole('button', { name: 'Add marketplace' }).click();
    await expect.poll(() => page.locator('li.catalog-plugin').count(), { timeout: 60_000 }).toBe(2);
    expect(await page.locator('li.marketplace .marketplace-name').allInnerTexts()).toEqual(['Team shelf']);
    expect(await page.locator('.welcome').count()).toBe(0);
    expect(await catalogPlugin('notes@team').innerText()).toContain('Notes for the team');
    expect(await catalogPlugin('notes@team').innerText()).toContain('Not installed');
    // Search narrows the catalog.
    await page.getByLabel('Search plugins').fill('team notes');
    expect(await page.locator('li.catalog-plugin').count()).toBe(1);
    await page.getByLabel('Search plugins').fill('');
    await page.getByRole('button', { name: 'Refresh Team shelf' }).click();
    await expect.poll(() => page.locator('.notice-info').innerText(), { timeout: 30_000 }).toContain('Refreshed: 2 plugins.');
    await browser?.screenshot('3-catalog');
  });

  it('opens the details with the description and components, and installs the plugin', async () => {
    await page.getByRole('button', { name: 'Details of Notes' }).click();
    await expect.poll(() => details().locator('.description').innerText(), { timeout: 30_000 }).toBe('Notes keeps short notes of what the team decided.');
    expect(await details().locator('.components').innerText()).toContain('notes:jot');
    expect(await details().getByRole('button', { name: 'Try in chat' }).isDisabled()).toBe(true);
    await browser?.screenshot('4-details');
    await details().getByRole('button', { name: 'Install Notes' }).click();
    await expect.poll(() => installedEntry('notes@team').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => details().getByRole('button', { name: 'Uninstall Notes' }).count(), { timeout: 30_000 }).toBe(1);
    expect(await skillSwitch().isChecked()).toBe(true);
    expect(await installedEntry('notes@team').getByRole('switch', { name: 'Notes enabled' }).isChecked()).toBe(true);
    await browser?.screenshot('5-installed');
  });

  it('switches the skill off and on again', async () => {
    await skillSwitch().click();
    await expect.poll(() => skillSwitch().isChecked(), { timeout: 60_000 }).toBe(false);
    await expect.poll(() => skillSwitch().isDisabled(), { timeout: 60_000 }).toBe(false);
    await browser?.screenshot('6-skill-off');
    await skillSwitch().click();
    await expect.poll(() => skillSwitch().isChecked(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => skillSwitch().isDisabled(), { timeout: 60_000 }).toBe(false);
  });

  it('tries the plugin in chat: the composer of a new task holds its mention and default prompt', async () => {
    await details().getByRole('button', { name: 'Try in chat' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).getAttribute('aria-current'), { timeout: 30_000 }).toBe('page');
    const composer = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => composer.innerText(), { timeout: 30_000 }).toBe('@notes Jot down what we decided');
    expect(await composer.evaluate((el) => el === document.activeElement)).toBe(true);
    // The plugin is one inline mention (an atom the caret cannot enter), and the draft is Codex markdown.
    expect(await composer.getByLabel('Plugin notes').innerText()).toBe('@notes');
    await page.keyboard.press('ControlOrMeta+A');
    const copied = await page.evaluate(() => {
      const data = new DataTransfer();
      document.getElementById('composer-input')?.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, cancelable: true, bubbles: true }));
      return data.getData('text/plain');
    });
    expect(copied).toBe('[@notes](plugin://notes@team) Jot down what we decided');
    await browser?.screenshot('7-try-in-chat');
  });

  it('uninstalls the plugin; the catalog shows it not installed, and the page works in a narrow window', async () => {
    await page.getByRole('link', { name: 'Plugins' }).click();
    await catalogPlugin('notes@team').getByRole('button', { name: 'Uninstall Notes' }).click();
    await expect.poll(() => installedEntry('notes@team').count(), { timeout: 60_000 }).toBe(0);
    await expect.poll(() => catalogPlugin('notes@team').innerText(), { timeout: 30_000 }).toContain('Not installed');
    await browser?.screenshot('8-uninstalled');
    await page.setViewportSize({ width: 360, height: 800 });
    await browser?.screenshot('9-narrow-window');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Every control of the page is labelled.
    const unnamed = await page.locator('main.plugins').locator('input, button, select, textarea').evaluateAll((els) =>
      els.filter((el) => (el as HTMLInputElement).labels?.length === 0 && (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() === '').length,
    );
    expect(unnamed).toBe(0);
  });

  it('moves a custom marketplace up by keyboard: the focus stays on its buttons, and the executor and a reload keep the order', async () => {
    await page.setViewportSize({ width: 1100, height: 900 });
    for (const source of [design, ops]) {
      await page.getByLabel('Marketplace source').fill(source);
      await page.getByRole('button', { name: 'Add marketplace' }).click();
      await expect.poll(() => page.locator('.notice-info').innerText(), { timeout: 60_000 }).toMatch(/^Added: /);
      await page.locator('.notice-info').getByRole('button', { name: 'Dismiss' }).click();
    }
    await expect.poll(marketplaceOrder, { timeout: 30_000 }).toEqual(['Team shelf', 'Design shelf', 'Ops shelf']);
    // The ends do not move: the first cannot go up, the last cannot go down.
    expect(await page.getByRole('button', { name: 'Move Team shelf up' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Move Ops shelf down' }).isDisabled()).toBe(true);
    await browser?.screenshot('10-three-marketplaces');
    // From the marketplace's own button, Tab reaches "Move up"; Enter moves it.
    await page.locator('li.marketplace[data-marketplace="ops"] .marketplace-select').focus();
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Move Ops shelf up');
    await page.keyboard.press('Enter');
    await expect.poll(marketplaceOrder, { timeout: 30_000 }).toEqual(['Team shelf', 'Ops shelf', 'Design shelf']);
    await expect.poll(() => page.locator('.notice-info').innerText(), { timeout: 30_000 }).toContain('Moved Ops shelf up.');
    await expect.poll(focusedLabel, { timeout: 30_000 }).toBe('Move Ops shelf up');
    expect(await listedNames()).toEqual(['team', 'ops', 'design']);
    await browser?.screenshot('11-moved-up');
    // Up once more, to the top: "Move up" is disabled there, so the focus is on its "Move down".
    await page.keyboard.press('Enter');
    await expect.poll(marketplaceOrder, { timeout: 30_000 }).toEqual(['Ops shelf', 'Team shelf', 'Design shelf']);
    await expect.poll(focusedLabel, { timeout: 30_000 }).toBe('Move Ops shelf down');
    expect(await page.getByRole('button', { name: 'Move Ops shelf up' }).isDisabled()).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe('solid');
    expect(await listedNames()).toEqual(['ops', 'team', 'design']);
    await browser?.screenshot('12-moved-to-top');
    // A reload of the page shows the executor's order.
    await page.reload();
    await expect.poll(marketplaceOrder, { timeout: 30_000 }).toEqual(['Ops shelf', 'Team shelf', 'Design shelf']);
    await browser?.screenshot('13-order-after-reload');
  });

  it('flips the remote Apps / Connectors switch: the executor reads the new value and Codex’s config.toml holds it', async () => {
    await expect.poll(() => remoteApps().count(), { timeout: 30_000 }).toBe(1);
    const read = await hostCall(page, demo?.url ?? '', 'integrations/apps/read', {});
    const before = (read.result as { enabled: boolean }).enabled;
    expect(await remoteApps().isChecked()).toBe(before);
    await browser?.screenshot(`14-remote-apps-${before ? 'on' : 'off'}`);
    for (const enabled of [!before, before]) {
      await remoteApps().focus();
      await page.keyboard.press('Space');
      await expect.poll(() => remoteApps().isChecked(), { timeout: 60_000 }).toBe(enabled);
      await expect.poll(() => remoteApps().isDisabled(), { timeout: 120_000 }).toBe(false);
      // Disabled while written, the switch gets the focus back after.
      await expect.poll(() => remoteApps().evaluate((el) => el === document.activeElement), { timeout: 30_000 }).toBe(true);
      expect(await page.locator('.notice-error').count()).toBe(0);
      expect(await remoteApps().isChecked()).toBe(enabled);
      // Codex may still be starting with the new setting: the executor answers the read once it is ready.
      await expect.poll(async () => (await hostCall(page, demo?.url ?? '', 'integrations/apps/read', {})).result, { timeout: 60_000 }).toEqual({ enabled });
      expect(await configuredApps()).toBe(enabled);
      await browser?.screenshot(`${enabled === before ? '16' : '15'}-remote-apps-${enabled ? 'on' : 'off'}`);
    }
    // And in a narrow window.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await browser?.screenshot('17-narrow-window');
  });

  it('installs a plugin whose connector signs in by QR code: the code is shown, and closing the sign-in rolls the install back', async () => {
    await page.setViewportSize({ width: 1100, height: 900 });
    await addAndInstall({ source: signin, shelf: 'Sign-in shelf', pluginId: 'chat@signin', plugin: 'Team chat', connector: 'team-chat — signs in by scanning a QR code, when installing' });
    // The executor runs the connector's login bridge: the page shows its QR code, drawn and as text.
    await expect.poll(() => qrCode().count(), { timeout: 60_000 }).toBe(1);
    expect(await login().innerText()).toContain('team-chat for chat@signin (QR code)');
    expect(await login().getByRole('status').innerText()).toBe('Scan this code with the app to sign in.');
    expect(await login().locator('figure.qr figcaption').innerText()).toBe(QR_PAYLOAD);
    expect(await scanQrCode()).toBe(QR_PAYLOAD);
    expect(await details().getByRole('button', { name: 'Install Team chat' }).isDisabled()).toBe(true);
    await browser?.screenshot('18-signin-qr-code');
    // The person closes the sign-in: nothing is installed, and the page says so.
    await login().getByRole('button', { name: 'Cancel sign-in' }).click();
    await expect.poll(() => login().getByRole('status').innerText(), { timeout: 60_000 }).toBe('The login was cancelled; nothing was installed.');
    expect(await qrCode().count()).toBe(0);
    await expect.poll(() => page.locator('.notice-error').innerText(), { timeout: 60_000 }).toContain('Installing the plugin failed');
    expect(await page.locator('.notice-error').innerText()).toContain('The connector login did not complete, so nothing was installed. Install again to retry.');
    expect(await executorHas('chat@signin')).toBe(false);
    await expect.poll(() => catalogPlugin('chat@signin').innerText(), { timeout: 30_000 }).toContain('Not installed');
    expect(await installedEntry('chat@signin').count()).toBe(0);
    expect(await details().getByRole('button', { name: 'Install Team chat' }).isDisabled()).toBe(false);
    await browser?.screenshot('19-signin-cancelled');
  });

  it('installs it again: once the code is scanned the sign-in succeeds and the plugin is installed', async () => {
    await login().getByRole('button', { name: 'Dismiss' }).click();
    await page.locator('.notice-error').getByRole('button', { name: 'Dismiss' }).click();
    expect(await login().count()).toBe(0);
    await details().getByRole('button', { name: 'Install Team chat' }).click();
    await expect.poll(() => qrCode().count(), { timeout: 60_000 }).toBe(1);
    expect(await scanQrCode()).toBe(QR_PAYLOAD);
    expect(await executorHas('chat@signin')).toBe(false);
    await browser?.screenshot('20-signin-qr-code-again');
    // The code is scanned: the bridge's next poll reports the login done.
    await writeFile(scanned, '');
    await expect.poll(() => login().getByRole('status').innerText(), { timeout: 60_000 }).toBe('Signed in as Ada.');
    await expect.poll(() => installedEntry('chat@signin').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => page.locator('.notice-info p').innerText(), { timeout: 30_000 }).toBe('Installed chat.');
    expect(await qrCode().count()).toBe(0);
    expect(await page.locator('.notice-error').count()).toBe(0);
    await expect.poll(() => details().getByRole('button', { name: 'Uninstall Team chat' }).count(), { timeout: 30_000 }).toBe(1);
    expect(await catalogPlugin('chat@signin').innerText()).toContain('Installed');
    expect(await executorHas('chat@signin')).toBe(true);
    await browser?.screenshot('21-signin-installed');
  });

  it('installs a plugin whose connector signs in in the browser: closing the sign-in ends its login command and rolls the install back', async () => {
    await login().getByRole('button', { name: 'Dismiss' }).click();
    await page.locator('.notice-info').getByRole('button', { name: 'Dismiss' }).click();
    await addAndInstall({ source: oauth, shelf: 'Browser sign-in shelf', pluginId: 'docs@oauth', plugin: 'Team docs', connector: 'team-docs — signs in in the browser, when installing' });
    await expect.poll(() => login().getByRole('status').innerText(), { timeout: 60_000 }).toBe('Finish signing in in the browser window that opened.');
    expect(await login().innerText()).toContain('team-docs for docs@oauth (browser)');
    // The login command runs: its sign-in page answers.
    const url = await signInUrl();
    expect(await (await fetch(url)).text()).toContain('Authorize Wework');
    await browser?.screenshot('22-signin-browser-waiting');
    await login().getByRole('button', { name: 'Cancel sign-in' }).click();
    await expect.poll(() => login().getByRole('status').innerText(), { timeout: 60_000 }).toBe('The login was cancelled; nothing was installed.');
    // Cancelling ended the login command: its page no longer answers.
    await expect.poll(() => fetch(url).then(() => 'answers', () => 'gone'), { timeout: 30_000 }).toBe('gone');
    await expect.poll(() => page.locator('.notice-error').innerText(), { timeout: 60_000 }).toContain('The connector login did not complete, so nothing was installed. Install again to retry.');
    expect(await executorHas('docs@oauth')).toBe(false);
    await browser?.screenshot('23-signin-browser-cancelled');
  });

  it('installs it again: authorizing in the browser tab signs in, and the plugin is installed', async () => {
    await login().getByRole('button', { name: 'Dismiss' }).click();
    await page.locator('.notice-error').getByRole('button', { name: 'Dismiss' }).click();
    await rm(openedUrl, { force: true });
    await details().getByRole('button', { name: 'Install Team docs' }).click();
    await expect.poll(() => login().getByRole('status').innerText(), { timeout: 60_000 }).toBe('Finish signing in in the browser window that opened.');
    // What the operating system would do with the command's address: a browser tab opens it.
    const tab = await page.context().newPage();
    try {
      await tab.goto(await signInUrl());
      expect(await tab.title()).toBe('Team docs sign-in');
      await tab.getByRole('button', { name: 'Authorize Wework' }).click();
      await expect.poll(() => tab.locator('p').innerText(), { timeout: 30_000 }).toBe('Signed in. You can close this window.');
    } finally {
      await tab.close();
    }
    await expect.poll(() => login().getByRole('status').innerText(), { timeout: 60_000 }).toBe('Signed in as Grace.');
    await expect.poll(() => installedEntry('docs@oauth').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => page.locator('.notice-info p').innerText(), { timeout: 30_000 }).toBe('Installed docs.');
    expect(await page.locator('.notice-error').count()).toBe(0);
    expect(await executorHas('docs@oauth')).toBe(true);
    await browser?.screenshot('24-signin-browser-installed');
  });
});
