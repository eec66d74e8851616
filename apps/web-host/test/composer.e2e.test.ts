/**
 * The composer and the pickers in a real browser: Debian's Chromium (playwright-core) against the real
 * executor with Codex's plugin system on (as `webDemo.js` starts it), a local marketplace whose plugin
 * carries a skill, and the scripted model recording what it received (`--record`). The user inserts the
 * skill by typing `$` and the plugin by typing `@`, each from the picker by keyboard; the caret never
 * enters a mention (the text before the caret after each arrow key) and Backspace removes a whole one;
 * the plugin entry's preview inserts the plugin again; the sent message shows badges and the model
 * received the skill's instructions and the plugin's capabilities; the skill badge shows its SKILL.md;
 * Full access on an existing task asks for confirmation; a task whose saved model vanished cannot send
 * and says why; the user's own skill (in the Codex home) and the workspace's skill are offered by the picker
 * next to the plugin's, and the user skill's mention shows its SKILL.md. Each state is saved as a screenshot under `test-artifacts/composer/`.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { respond, say } from '@wework/scripted-model';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserAvailable, browserTestHooks, hostCall, openBrowser, startWebDemo, tempRoot, type Browser, type WebDemo, whenConnected } from './support/webHost.js';

const SKILL_MARKER = 'Greet the user warmly. (skill body marker 5128)';
const USER_SKILL_MARKER = 'Keep my notes short. (user skill body marker 7341)';
const REPO_SKILL_MARKER = 'Build with make. (workspace skill body marker 2209)';
const SCRIPT = [respond(say('Greeted.'))];

const run = browserAvailable();
let root = '';
let recordPath = '';
let demo: WebDemo | undefined;
let browser: Browser | undefined;
let page: Page;

/** A local marketplace with one plugin carrying one skill. */
async function writeMarketplace(dir: string): Promise<void> {
  const plugin = join(dir, 'plugins', 'demo-plugin');
  await mkdir(join(plugin, '.codex-plugin'), { recursive: true });
  await mkdir(join(plugin, 'skills', 'greet'), { recursive: true });
  await writeFile(join(plugin, '.codex-plugin', 'plugin.json'), JSON.stringify({ name: 'demo-plugin', version: '0.1.0', description: 'Demo plugin', skills: './skills/', interface: { displayName: 'Demo' } }));
  await writeFile(join(plugin, 'skills', 'greet', 'SKILL.md'), `---\nname: greet\ndescription: Greets warmly\n---\n\n${SKILL_MARKER}\n`);
  await mkdir(join(dir, '.agents', 'plugins'), { recursive: true });
  await writeFile(join(dir, '.agents', 'plugins', 'marketplace.json'), JSON.stringify({ name: 'local-market', plugins: [{ name: 'demo-plugin', source: { source: 'local', path: './plugins/demo-plugin' } }] }));
}

/** Writes a `SKILL.md` named `name` in `dir`. */
async function writeSkill(dir: string, name: string, description: string, body: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
}

beforeAll(async () => {
  if (!run) return;
  root = await tempRoot();
  recordPath = join(root, 'requests.json');
  const market = join(root, 'market');
  await writeMarketplace(market);
  demo = await startWebDemo(SCRIPT, root, ['--record', recordPath]);
  // The user's own skill in the demo's Codex home, and a skill of its workspace.
  await writeSkill(join(dirname(demo.workspace), 'executor', 'codex', 'skills', 'my-notes'), 'my-notes', 'Keeps notes short', USER_SKILL_MARKER);
  await writeSkill(join(demo.workspace, '.agents', 'skills', 'build-it'), 'build-it', 'Builds the workspace', REPO_SKILL_MARKER);
  browser = await openBrowser(root, join(ARTIFACTS, 'composer'));
  page = browser.page;
  await page.goto(demo.url);
  await whenConnected(page);
  expect(await hostCall(page, demo.url, 'marketplaces/add', { source: market })).toMatchObject({ result: { marketplace: { name: 'local-market' } } });
  expect(await hostCall(page, demo.url, 'plugins/install', { marketplace: 'local-market', plugin: 'demo-plugin' })).toHaveProperty('result');
}, 240_000);

browserTestHooks(run, () => ({ root, demo, browser }), join(ARTIFACTS, 'composer'));

const editor = () => page.getByRole('textbox', { name: 'Message' });
/** The composer's text before the caret (mentions as their labels), and whether the caret's node is inside a mention. */
const caret = (): Promise<{ readonly before: string; readonly insideMention: boolean }> =>
  page.evaluate(() => {
    const el = document.getElementById('composer-input') as HTMLElement;
    const selection = document.getSelection() as Selection;
    const range = document.createRange();
    range.setStart(el, 0);
    range.setEnd(selection.anchorNode as Node, selection.anchorOffset);
    const node = selection.anchorNode;
    const element = node instanceof Element ? node : node?.parentElement;
    return { before: range.toString(), insideMention: element?.closest('.mention') !== null && element?.closest('.mention') !== undefined };
  });
const turnDone = (): Promise<void> => expect.poll(() => page.locator('p.turn-status').innerText(), { timeout: 60_000 }).toBe('Done');

describe.skipIf(!run)('the composer in Chromium', () => {
  it('inserts a skill and a plugin from the picker as mentions the caret cannot enter, sends them as badges, and the model receives them', async () => {
    await expect.poll(() => hostCall(page, demo?.url ?? '', 'plugins/installed', {}).then((r) => JSON.stringify(r.result)), { timeout: 60_000 }).toContain('greet');
    await page.getByRole('button', { name: 'New task' }).click();
    // The plugin entry of a new chat: a preview of the installed plugin.
    await expect.poll(() => page.locator('.plugin-preview').evaluateAll((els) => els.map((el) => el.textContent)), { timeout: 30_000 }).toEqual(['DDemo']);
    await editor().click();
    await page.keyboard.type('Use $gre');
    const options = page.getByRole('listbox', { name: 'Mentions' }).getByRole('option');
    await expect.poll(() => options.allInnerTexts()).toEqual([expect.stringContaining('$demo-plugin:greet')]);
    await browser?.screenshot('1-skill-picker');
    await page.keyboard.press('Enter');
    await page.keyboard.type('with @De');
    await expect.poll(() => options.allInnerTexts()).toEqual([expect.stringContaining('@Demo')]);
    await page.keyboard.press('Tab');
    expect(await page.getByRole('listbox', { name: 'Mentions' }).count()).toBe(0);
    const mentions = editor().locator('.mention');
    expect(await mentions.allInnerTexts()).toEqual(['$demo-plugin:greet', '@Demo']);
    expect(await mentions.evaluateAll((els) => els.map((el) => (el as HTMLElement).isContentEditable))).toEqual([false, false]);
    await browser?.screenshot('2-mentions-inserted');

    // The caret: after each arrow key it is before or after a mention, never inside one.
    expect(await caret()).toEqual({ before: 'Use $demo-plugin:greet with @Demo ', insideMention: false });
    const expected = ['Use $demo-plugin:greet with @Demo', 'Use $demo-plugin:greet with ', 'Use $demo-plugin:greet with'];
    for (const before of expected) {
      await page.keyboard.press('ArrowLeft');
      expect(await caret()).toEqual({ before, insideMention: false });
    }
    for (let i = 0; i < 'with '.length; i++) await page.keyboard.press('ArrowLeft');
    expect(await caret()).toEqual({ before: 'Use $demo-plugin:greet', insideMention: false });
    await page.keyboard.press('ArrowLeft');
    expect(await caret()).toEqual({ before: 'Use ', insideMention: false });
    await page.keyboard.press('ArrowRight');
    expect(await caret()).toEqual({ before: 'Use $demo-plugin:greet', insideMention: false });
    // Backspace after a mention removes it whole; the plugin entry's preview inserts the plugin at the caret.
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Backspace');
    expect(await mentions.allInnerTexts()).toEqual(['$demo-plugin:greet']);
    expect(await editor().innerText()).toBe('Use $demo-plugin:greet with  ');
    await page.keyboard.press('End');
    await page.locator('.plugin-preview', { hasText: 'Demo' }).click();
    expect(await mentions.allInnerTexts()).toEqual(['$demo-plugin:greet', '@Demo']);
    await page.keyboard.type('please');
    await browser?.screenshot('3-before-send');
    // Copy gives Codex markdown: the mentions as their links.
    await page.keyboard.press('ControlOrMeta+A');
    const copied = await page.evaluate(() => {
      const data = new DataTransfer();
      document.getElementById('composer-input')?.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, cancelable: true, bubbles: true }));
      return data.getData('text/plain');
    });
    expect(copied).toMatch(/^Use \[\$demo-plugin:greet\]\(\/.+\/skills\/greet\/SKILL\.md\) with {2}\[@Demo\]\(plugin:\/\/demo-plugin@local-market\) please$/);
    await page.keyboard.press('End');

    await page.keyboard.press('Enter');
    await turnDone();
    const sent = page.locator('li.entry-user').first();
    expect(await sent.getByRole('button', { name: 'Skill demo-plugin:greet' }).innerText()).toBe('$demo-plugin:greet');
    expect(await sent.getByRole('img', { name: 'Plugin Demo' }).innerText()).toBe('@Demo');
    expect(await sent.innerText()).not.toContain('SKILL.md');
    expect(await sent.innerText()).not.toContain('plugin://');
    // The conversation started: the plugin entry is one icon.
    expect(await page.locator('.plugin-preview').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Plugins', exact: true }).isVisible()).toBe(true);
    await browser?.screenshot('4-sent-badges');

    // The model received the skill's instructions and the plugin's capabilities (structured mentions, not link text).
    await expect.poll(() => existsSync(recordPath), { timeout: 30_000 }).toBe(true);
    const bodies = JSON.parse(await readFile(recordPath, 'utf8')) as ReadonlyArray<unknown>;
    const body = JSON.stringify(bodies[bodies.length - 1]);
    await writeFile(join(ARTIFACTS, 'composer', 'model-request.json'), body);
    // The skill mention made Codex inject the skill's body; the plugin mention made it add the plugin's capabilities.
    expect(body).toContain(`${JSON.stringify(SKILL_MARKER).slice(1, -1)}\\n\\n</skill>`);
    expect(body).toContain('Capabilities from the `Demo` plugin:\\n- Skills from this plugin are prefixed with `demo-plugin:`');

    // The skill badge shows its SKILL.md.
    await sent.getByRole('button', { name: 'Skill demo-plugin:greet' }).click();
    const preview = page.getByRole('dialog', { name: 'Skill $demo-plugin:greet' });
    await expect.poll(() => preview.locator('pre').innerText().catch(() => ''), { timeout: 30_000 }).toContain(SKILL_MARKER);
    await browser?.screenshot('5-skill-preview');
    // skills/read reads only a skill the inventory lists.
    expect(await hostCall(page, demo?.url ?? '', 'skills/read', { path: join(root, 'market', 'plugins', 'demo-plugin', 'skills', 'greet', 'SKILL.md') })).toMatchObject({ error: { code: -32026 } });
    await preview.getByRole('button', { name: 'Close' }).click();
  });

  it("offers the user's and the workspace's own skills next to the plugin's, and shows a user skill's SKILL.md", async () => {
    await editor().click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('Try $');
    const options = page.getByRole('listbox', { name: 'Mentions' }).getByRole('option');
    await expect.poll(() => options.allInnerTexts(), { timeout: 30_000 }).toEqual(
      expect.arrayContaining([expect.stringContaining('$demo-plugin:greet'), expect.stringContaining('$my-notes'), expect.stringContaining('$build-it')]),
    );
    const texts = await options.allInnerTexts();
    // Each SKILL.md once: the plugin's skill (also in Codex's skill list) is offered a single time, with its plugin.
    expect(texts.filter((text) => text.includes('$demo-plugin:greet'))).toHaveLength(1);
    expect(texts.find((text) => text.includes('$my-notes'))).toContain('Your skill');
    expect(texts.find((text) => text.includes('$build-it'))).toContain('Skill of this workspace');
    await browser?.screenshot('5b-own-skills-picker');
    await page.keyboard.type('my-n');
    await expect.poll(() => options.allInnerTexts()).toEqual([expect.stringContaining('$my-notes')]);
    await page.keyboard.press('Enter');
    const mention = editor().locator('.mention', { hasText: '$my-notes' });
    expect(await mention.count()).toBe(1);
    await mention.click();
    const preview = page.getByRole('dialog', { name: 'Skill $my-notes' });
    await expect.poll(() => preview.locator('pre').innerText().catch(() => ''), { timeout: 30_000 }).toContain(USER_SKILL_MARKER);
    await browser?.screenshot('5c-user-skill-preview');
    await preview.getByRole('button', { name: 'Close' }).click();
    // A file beside the listed skills is still refused.
    expect(await hostCall(page, demo?.url ?? '', 'skills/read', { cwd: demo?.workspace, path: join(dirname(demo?.workspace ?? ''), 'executor', 'codex', 'config.toml') })).toMatchObject({ error: { code: -32026 } });
    await editor().click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
  });

  it('asks before switching an existing task to Full access', async () => {
    const picker = page.getByLabel('Permission mode').last();
    await picker.selectOption('workspace');
    expect(await page.locator('.task-mode').innerText()).toBe('Workspace');
    await picker.selectOption('full-access');
    const dialog = page.getByRole('alertdialog', { name: 'Use Full access?' });
    expect(await dialog.isVisible()).toBe(true);
    expect(await picker.inputValue()).toBe('workspace');
    await browser?.screenshot('6-full-access-confirmation');
    await dialog.getByRole('button', { name: 'Keep Workspace' }).click();
    expect(await page.locator('.task-mode').innerText()).toBe('Workspace');
    await picker.selectOption('full-access');
    await page.getByRole('alertdialog', { name: 'Use Full access?' }).getByRole('button', { name: 'Use Full access' }).click();
    expect(await page.locator('.task-mode').innerText()).toBe('Full access');
  });

  it('offers the models in Codex order without hidden ones; a task whose saved model vanished cannot send and says why', async () => {
    const listed = (await hostCall(page, demo?.url ?? '', 'models/list', {})).result as { models: ReadonlyArray<{ model: string; displayName: string; hidden: boolean }> };
    const modelPicker = page.getByLabel('Model').last();
    expect(await modelPicker.locator('option').evaluateAll((els) => els.map((el) => (el.textContent ?? '').trim()))).toEqual([expect.stringMatching(/^Default/), ...listed.models.filter((m) => !m.hidden).map((m) => m.displayName)]);
    // A task persisted with a model the catalog no longer offers (opened from another window's record); the executor refuses its send.
    const created = await hostCall(page, demo?.url ?? '', 'task/create', { taskId: 'task-retired', modelSelection: { model: 'gpt-retired-model', options: { permissionMode: 'workspace' } }, executionRequest: { workspace: demo?.workspace } });
    expect(created).toHaveProperty('result');
    const refused = await hostCall(page, demo?.url ?? '', 'message/send', { taskId: 'task-retired', markdown: 'hello' });
    expect(refused.error?.code).toBe(-32003);
    await page.reload();
    await whenConnected(page);
    await page.getByRole('button', { name: /^Task 2/ }).click();
    const blocked = page.locator('.composer-blocked');
    await expect.poll(() => blocked.innerText().catch(() => ''), { timeout: 30_000 }).toContain('"gpt-retired-model" saved on this task is no longer available');
    await editor().click();
    await page.keyboard.type('hello');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.locator('li.entry-user').count()).toBe(0);
    await browser?.screenshot('7-model-vanished');
    // Choosing an offered model lifts the block.
    const first = listed.models.find((m) => !m.hidden);
    if (first !== undefined) {
      await page.getByLabel('Model').last().selectOption(first.model);
      expect(await page.locator('.composer-blocked').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    }
  });
});
