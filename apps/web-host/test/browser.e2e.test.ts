/**
 * The web host in a real browser: Debian's Chromium (playwright-core) against the real executor
 * (`serve.js --ws --ui`, started by the web demo), the real app-server, the sample forms plugin and
 * the scripted model. The user answers the strategy form with "Safe" and the plugin receives `safe`;
 * fills and submits the multi-question release form after its out-of-range number was refused before
 * sending; picks regions in a multi-select that refuses a fourth pick; allows a command in Read only
 * mode with one of the advertised decisions and the file appears; and sees a waiting form again after
 * the connection dropped. Each state is saved as a screenshot under `test-artifacts/browser/`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool, respond, say, shell } from '@wework/scripted-model';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserAvailable, browserTestHooks, chatPage, openBrowser, startWebDemo, tempRoot, type Browser, type WebDemo, whenConnected } from './support/webHost.js';

const SCRIPT = [
  respond(callTool('forms', 'choose_strategy')),
  respond(say('Safe it is.')),
  respond(callTool('forms', 'configure_release')),
  respond(say('The release is configured.')),
  respond(callTool('forms', 'roll_out')),
  respond(say('Rolling out.')),
  respond(shell('touch approved.txt', { sandboxPermissions: 'require_escalated', justification: 'the task needs this file' })),
  respond(say('File created.')),
  respond(callTool('forms', 'choose_strategy')),
  respond(say('Fast it is.')),
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
  browser = await openBrowser(root, join(ARTIFACTS, 'browser'));
  page = browser.page;
  await page.goto(demo.url);
  await whenConnected(page);
});

browserTestHooks(run, () => ({ root, demo, browser }), join(ARTIFACTS, 'browser'));

const { card, lastToolResult, send, turnDone } = chatPage(() => page);

describe.skipIf(!run)('the web host in Chromium', () => {
  it('shows the strategy form with its first option as the default; clicking "Safe" answers it and the plugin receives safe', async () => {
    await page.getByRole('button', { name: 'New task' }).click();
    await send('Use [@Forms](plugin://forms@local-market) to choose a strategy');
    await expect.poll(() => card().getByRole('heading').innerText(), { timeout: 60_000 }).toBe('Choose how to continue');
    // One question with options: each option is a button that submits; the first is the default; no Submit button.
    const options = card().getByRole('group', { name: 'Strategy' }).getByRole('button');
    expect(await options.allInnerTexts()).toEqual(['Fast', 'Safe', 'Ask me before each step']);
    expect(await options.first().getAttribute('class')).toContain('option-default');
    expect(await card().getByRole('button', { name: 'Submit' }).count()).toBe(0);
    expect(await card().getByRole('button', { name: 'Cancel' }).count()).toBe(1);
    expect(await card().getByRole('button', { name: 'Decline' }).count()).toBe(1);
    await browser?.screenshot('1-strategy-form');
    // The sent plugin mention is a badge, never its protocol string (the mention serializer runs in the page).
    const sent = page.locator('li.entry-user').first();
    expect(await sent.getByRole('img', { name: 'Plugin Forms' }).innerText()).toBe('@Forms');
    expect(await sent.innerText()).not.toContain('plugin://');
    await card().getByRole('button', { name: 'Safe' }).click();
    expect(await lastToolResult('choose_strategy')).toContain('elicitation: accept {"strategy":"safe"}');
    await turnDone();
    expect(await page.locator('section.card').count()).toBe(0);
    await browser?.screenshot('2-strategy-answered');
  });

  it('refuses an out-of-range number before sending, then submits the filled multi-question form', async () => {
    await send('Configure the release');
    await expect.poll(() => card().getByRole('heading').innerText(), { timeout: 60_000 }).toBe('Configure the release');
    // Defaults: the first option of each choice, booleans true first.
    expect(await card().getByRole('radio', { name: 'Stable' }).isChecked()).toBe(true);
    expect(await card().getByRole('radio', { name: 'true' }).isChecked()).toBe(true);
    // By keyboard: the channel radio group moves with the arrow keys.
    await card().getByRole('radio', { name: 'Stable' }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await card().getByRole('radio', { name: 'Beta' }).isChecked()).toBe(true);
    // Keyboard focus is visible, and every control of the card is reachable by Tab and has a name.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe('solid');
    const controls = card().locator('input, button, select, textarea');
    expect(await controls.evaluateAll((els) => els.every((el) => (el as HTMLElement).tabIndex >= 0 && !(el as HTMLInputElement).disabled))).toBe(true);
    expect(await controls.evaluateAll((els) => els.every((el) => (el as HTMLInputElement).labels?.length !== 0 || (el.textContent ?? '').trim() !== ''))).toBe(true);
    await card().getByRole('radio', { name: 'false' }).check();
    const replicas = card().getByLabel('Replicas');
    expect(await replicas.getAttribute('min')).toBe('1');
    expect(await replicas.getAttribute('max')).toBe('9');
    await replicas.fill('12');
    await card().getByRole('button', { name: 'Submit' }).click();
    // Refused before sending: the problem is shown at the field, which gets the focus; the card stays.
    await expect.poll(() => card().locator('[role=alert]').first().innerText()).toBe('Enter a number from 1 to 9.');
    expect(await replicas.getAttribute('aria-invalid')).toBe('true');
    expect(await replicas.evaluate((el) => el === document.activeElement)).toBe(true);
    await browser?.screenshot('3-number-out-of-range');
    expect(await page.locator('li.entry-tool', { hasText: 'forms.configure_release' }).last().getAttribute('data-status')).toBe('inProgress');
    await replicas.fill('3');
    await card().getByLabel('Release note').fill('first browser release');
    await card().getByRole('button', { name: 'Submit' }).click();
    const result = await lastToolResult('configure_release');
    expect(result).toContain('"channel":"beta"');
    expect(result).toContain('"notify":false');
    expect(result).toContain('"replicas":3');
    expect(result).toContain('"note":"first browser release"');
    await turnDone();
    await browser?.screenshot('4-release-submitted');
  });

  it('is a real multi-select that refuses a fourth pick and sends the three picked', async () => {
    await send('Roll out');
    await expect.poll(() => card().getByRole('heading').innerText(), { timeout: 60_000 }).toBe('Choose where to roll out');
    const regions = card().getByRole('group', { name: 'Regions' });
    expect(await regions.innerText()).toContain('Pick 1 to 3.');
    for (const name of ['EU', 'US', 'Asia']) await regions.getByRole('checkbox', { name }).check();
    await regions.getByRole('checkbox', { name: 'South America' }).click();
    expect(await regions.getByRole('checkbox', { name: 'South America' }).isChecked()).toBe(false);
    expect(await card().locator('.card-notice').innerText()).toBe('Regions: you can pick at most 3. Unpick one first.');
    await browser?.screenshot('5-fourth-pick-refused');
    await card().getByRole('button', { name: 'Submit' }).click();
    expect(await lastToolResult('roll_out')).toContain('"regions":["eu","us","ap"]');
    await turnDone();
  });

  it('shows a command approval with exactly the advertised decisions in order; "Run once" runs it and the file appears', async () => {
    await page.getByRole('navigation', { name: 'Tasks' }).getByLabel('Permission mode').selectOption('read-only');
    await page.getByRole('button', { name: 'New task' }).click();
    await expect.poll(() => page.locator('.task-mode').innerText(), { timeout: 30_000 }).toBe('Read only');
    await send('Create approved.txt');
    await expect.poll(() => card().getAttribute('data-origin'), { timeout: 60_000 }).toBe('commandApproval');
    const decisions = card().locator('button.option-button');
    expect(await decisions.locator('.option-label').allInnerTexts()).toEqual(['Run once', 'Always allow commands starting with "touch approved.txt"', 'Stop the task']);
    expect(await decisions.locator('.option-description').allInnerTexts()).toEqual([
      'Allow this command this time; ask again next time.',
      'Run now and add a rule so that commands starting with "touch approved.txt" run without asking from now on.',
      'Refuse this command and stop the task.',
    ]);
    // An approval's answers are its decisions only: no Cancel or Decline of the page's own.
    expect(await card().getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    await browser?.screenshot('6-command-approval');
    await decisions.first().click();
    await expect.poll(() => existsSync(join(demo?.workspace ?? '', 'approved.txt')), { timeout: 60_000 }).toBe(true);
    await turnDone();
    await browser?.screenshot('7-command-ran');
  });

  it('shows the waiting form again after the connection dropped, and its answer continues the turn', async () => {
    await send('Choose again');
    await expect.poll(() => card().getByRole('heading').innerText(), { timeout: 60_000 }).toBe('Choose how to continue');
    const cardId = await card().getAttribute('data-card-id');
    await page.evaluate(() => (window as unknown as { weworkHost: { drop: () => void } }).weworkHost.drop());
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Reconnecting' }).count()).toBeGreaterThan(0);
    await browser?.screenshot('8-reconnecting');
    // Back: the executor shows the same card again (same id), answerable.
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Connected' }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('section.card-stale').count(), { timeout: 30_000 }).toBe(0);
    expect(await card().getAttribute('data-card-id')).toBe(cardId);
    await browser?.screenshot('9-card-shown-again');
    await card().getByRole('button', { name: 'Fast' }).click();
    expect(await lastToolResult('choose_strategy')).toContain('elicitation: accept {"strategy":"fast"}');
    await turnDone();
    // A narrow window: the layout stacks and the transcript stays readable.
    await page.setViewportSize({ width: 360, height: 800 });
    await browser?.screenshot('10-narrow-window');
    const sidebar = await page.locator('nav.sidebar').boundingBox();
    const chat = await page.locator('main.chat').boundingBox();
    expect(sidebar !== null && chat !== null && chat.y >= sidebar.y + sidebar.height - 1).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
