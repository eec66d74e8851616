/**
 * Hostile packages through `plugins/install` of the real executor process (its real app-server): a hard
 * link to a file outside, a FIFO, a device, a directory swapped for a link to a fake `~/.codex` while
 * installs run, an oversized file, too many entries and a link planted in the Codex home's cache path
 * are all refused promptly with `PackageRefused`; nothing outside the homes is read or written (the
 * fake secret appears nowhere under the executor home) and the executor, Codex and Claude homes are
 * byte-identical after each refusal. A large file is streamed (the executor's peak RSS does not grow
 * by its size), and re-installing the installed version succeeds and repairs a tampered cache.
 */
import { spawn, execFileSync } from 'node:child_process';
import { linkSync, lstatSync, readFileSync, readdirSync, writeFileSync, type Dirent } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModelCodexConfig } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { startServe, type ServeAnswer, type ServeProcess } from './support/serveProcess.js';
import { treeLines } from './support/treeLines.js';

const CANARY = 'CANARY-intake-7f3a-auth-token';
const MARKETPLACE = 'wegent';
const MiB = 1024 * 1024;

interface Box {
  readonly root: string;
  readonly executorHome: string;
  readonly fakeCodex: string;
  readonly outside: string;
  readonly executor: ServeProcess;
  readonly model: ScriptedModel;
}
let box: Box;
let packages = 0;

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-hostile-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace'), fakeCodex: join(root, 'fake-dot-codex'), outside: join(root, 'outside') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  await writeFile(join(dirs.fakeCodex, 'auth.json'), JSON.stringify({ tokens: { access_token: CANARY } }), { mode: 0o600 });
  const model = await startScriptedModel({ script: [] });
  const provider = scriptedModelCodexConfig({ baseUrl: model.url });
  await writeFile(join(dirs.executorHome, 'codex', 'config.toml'), stringifyToml({ ...provider, features: { ...provider.features, plugins: true } }), { mode: 0o600 });
  const executor = startServe(['--executor-home', dirs.executorHome, '--workspace', dirs.workspace], { ...process.env, HOME: dirs.userHome });
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  box = { root, executorHome: dirs.executorHome, fakeCodex: dirs.fakeCodex, outside: dirs.outside, executor, model };
}, 120_000);

afterAll(async () => {
  await box?.executor.close();
  await box?.model.close();
  if (box !== undefined) await rm(box.root, { recursive: true, force: true });
});

/** A plain skill package; `extra` plants more in it before it is handed over. */
async function skillPackage(version: string, extra: (dir: string) => Promise<void> = async () => undefined): Promise<string> {
  const dir = join(box.root, `package-${packages++}`);
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/standup'), { recursive: true });
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'team-skills', version, description: 'Team rituals', skills: './skills/' }));
  await writeFile(join(dir, 'skills/standup/SKILL.md'), `---\nname: standup\ndescription: Daily stand-up (v${version})\n---\n\nList yesterday, today, blockers.\n`);
  await extra(dir);
  return dir;
}

const install = (packagePath: string, version = '1.0.0', plugin = 'team-skills'): Promise<ServeAnswer> =>
  box.executor.request('plugins/install', { marketplace: MARKETPLACE, plugin, version, packagePath }, 60_000);

const digest = (): string => JSON.stringify([treeLines(box.executorHome), treeLines(box.fakeCodex), treeLines(box.outside)]);

/**
 * Every file under `root` that contains `needle`. Codex creates and removes its own scratch entries
 * while it runs (a marketplace checkout under `.tmp`): one gone before it is read held nothing to find.
 */
function filesContaining(root: string, needle: string): string[] {
  const out: string[] = [];
  const gone = (error: unknown): boolean => (error as { code?: unknown }).code === 'ENOENT';
  const walk = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (gone(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        try {
          if (lstatSync(path).size < 64 * MiB && readFileSync(path).includes(needle)) out.push(path);
        } catch (error) {
          if (!gone(error)) throw error;
        }
      }
    }
  };
  walk(root);
  return out;
}

/** The executor's peak resident set since the last {@link resetPeakRss} (Linux `VmHWM`), in bytes. */
const peakRss = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) * 1024;
/** Resets the peak to the current resident set (`clear_refs` 5). */
const resetPeakRss = (pid: number): void => writeFileSync(`/proc/${pid}/clear_refs`, '5');

const refusedWith = (answer: ServeAnswer, reason: string): void => {
  expect(answer).toMatchObject({ error: { code: -32014, data: { tag: 'PackageRefused' } } });
  if ('error' in answer) {
    expect(answer.error.message).toContain(reason);
    expect(answer.error.message).not.toContain(box.root);
  }
};

describe('hostile packages through plugins/install', () => {
  it.each([
    ['a hard link to a file outside', 'Hardlink', async (dir: string) => linkSync(join(box.fakeCodex, 'auth.json'), join(dir, 'skills/standup/notes.md'))],
    ['a FIFO', 'SpecialFile', async (dir: string) => void execFileSync('mkfifo', [join(dir, 'skills/pipe')])],
    ['an escaping symbolic link', 'Symlink', async (dir: string) => symlink(box.fakeCodex, join(dir, 'skills/home'))],
    ['an oversized (sparse) file', 'FileTooLarge', async (dir: string) => {
      await writeFile(join(dir, 'huge.bin'), '');
      await truncate(join(dir, 'huge.bin'), 257 * MiB);
    }],
    ['too many entries', 'TooManyEntries', async (dir: string) => {
      await mkdir(join(dir, 'many'));
      for (let i = 0; i <= 10_000; i++) writeFileSync(join(dir, 'many', String(i)), '');
    }],
  ])('%s is refused (%s), the homes byte-identical, nothing outside touched', async (_name, reason, plant) => {
    const dir = await skillPackage('1.0.0', plant);
    const before = digest();
    refusedWith(await install(dir), reason);
    expect(digest()).toBe(before);
    expect(filesContaining(box.executorHome, CANARY)).toEqual([]);
  }, 120_000);

  it.skipIf(process.getuid?.() !== 0)('a character device (created as root) is refused without being opened', async () => {
    const dir = await skillPackage('1.0.0', async (d) => void execFileSync('mknod', [join(d, 'skills/null'), 'c', '1', '3']));
    const before = digest();
    refusedWith(await install(dir), 'SpecialFile');
    expect(digest()).toBe(before);
  });

  it('four FIFO installs at once do not wedge the executor: plugins/list and executor/info answer', async () => {
    const dirs = await Promise.all([0, 1, 2, 3].map(() => skillPackage('1.0.0', async (d) => void execFileSync('mkfifo', [join(d, 'skills/standup/SKILL.pipe')]))));
    const answers = await Promise.all(dirs.map((dir) => install(dir)));
    for (const answer of answers) refusedWith(answer, 'SpecialFile');
    expect(await box.executor.request('plugins/list', {}, 30_000)).toMatchObject({ result: { plugins: expect.any(Array) } });
    expect(await box.executor.request('executor/info', {}, 30_000)).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  });

  it('a link planted at the Codex cache of the marketplace is refused; nothing is written through it', async () => {
    const planted = join(box.executorHome, 'codex', 'plugins', 'cache', 'planted-market');
    await mkdir(join(planted, '..'), { recursive: true });
    await symlink(box.outside, planted);
    try {
      const before = digest();
      refusedWith(await box.executor.request('plugins/install', { marketplace: 'planted-market', plugin: 'team-skills', version: '1.0.0', packagePath: await skillPackage('1.0.0') }, 60_000), 'LinkInHome');
      expect(digest()).toBe(before);
      expect(readdirSync(box.outside)).toEqual([]);
    } finally {
      await rm(planted);
    }
  });

  it('a package directory swapped for a link to a fake ~/.codex during 12 installs: no secret ever reaches the homes', async () => {
    const dir = await skillPackage('1.0.0');
    const skills = join(dir, 'skills');
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const [dir, real, secret] = process.argv.slice(1);
         process.stdout.write('swapping\\n');
         for (;;) { try { fs.renameSync(dir, real); fs.symlinkSync(secret, dir); fs.unlinkSync(dir); fs.renameSync(real, dir); } catch {} }`,
        skills,
        join(box.root, 'skills-real'),
        box.fakeCodex,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const swapperExited = new Promise((resolve) => swapper.once('exit', resolve));
    const outcomes = { accepted: 0, refused: 0, reasons: new Set<string>() };
    try {
      await new Promise((resolve) => swapper.stdout.once('data', resolve));
      for (let i = 0; i < 12; i++) {
        const answer = await install(dir, `1.0.${i}`, 'raced-skills');
        if ('error' in answer) {
          expect(answer.error.data).toMatchObject({ tag: expect.stringMatching(/^(PackageRefused|PluginOperationFailed)$/) });
          outcomes.refused++;
          outcomes.reasons.add(answer.error.message);
        } else outcomes.accepted++;
      }
    } finally {
      swapper.kill('SIGKILL');
      await swapperExited;
    }
    expect(outcomes.accepted + outcomes.refused).toBe(12);
    expect(filesContaining(box.executorHome, CANARY)).toEqual([]);
    expect(treeLines(box.fakeCodex)).toEqual([expect.stringMatching(/^\. dir /), expect.stringMatching(/^auth\.json file 600 /)]);
    // Published modes are never group- or world-writable.
    for (const line of treeLines(join(box.executorHome, 'codex', 'plugins', 'cache'))) {
      const mode = /^(?:\S*) (?:dir|file) (\d+)/.exec(line)?.[1];
      if (mode !== undefined) expect(Number.parseInt(mode, 8) & 0o022, line).toBe(0);
    }
    console.log(`racing installs: ${outcomes.accepted} accepted (without the secret), ${outcomes.refused} refused: ${[...outcomes.reasons].join(' | ')}`);
  }, 300_000);

  it.skipIf(process.platform !== 'linux')('a 200 MiB file is streamed: the executor peak RSS does not grow by its size', async () => {
    const warm = await install(await skillPackage('2.0.0'), '2.0.0', 'large-skills');
    expect(warm).toMatchObject({ result: { plugin: { installed: true } } });
    const dir = await skillPackage('2.0.1', async (d) => {
      await writeFile(join(d, 'data.bin'), '');
      await truncate(join(d, 'data.bin'), 200 * MiB);
    });
    resetPeakRss(box.executor.pid);
    const before = peakRss(box.executor.pid);
    expect(await install(dir, '2.0.1', 'large-skills')).toMatchObject({ result: { plugin: { installed: true } } });
    const grown = peakRss(box.executor.pid) - before;
    console.log(`peak RSS growth installing a 200 MiB file: ${(grown / MiB).toFixed(1)} MiB (from ${(before / MiB).toFixed(1)} MiB)`);
    expect(grown).toBeLessThan(64 * MiB);
    expect(lstatSync(join(box.executorHome, 'codex/plugins/cache', MARKETPLACE, 'large-skills/2.0.1/data.bin')).size).toBe(200 * MiB);
  }, 300_000);

  it('re-installing the installed version succeeds, and repairs a tampered cache', async () => {
    const dir = await skillPackage('3.0.0');
    expect(await install(dir, '3.0.0', 'repeat-skills')).toMatchObject({ result: { plugin: { pluginId: `repeat-skills@${MARKETPLACE}`, installed: true } } });
    const cache = join(box.executorHome, 'codex/plugins/cache', MARKETPLACE, 'repeat-skills/3.0.0');
    const installed = treeLines(cache);
    expect(await install(dir, '3.0.0', 'repeat-skills')).toMatchObject({ result: { plugin: { installed: true } } });
    expect(treeLines(cache)).toEqual(installed);
    await writeFile(join(cache, 'skills/standup/SKILL.md'), 'tampered');
    await writeFile(join(cache, 'planted.txt'), 'planted');
    expect(await install(dir, '3.0.0', 'repeat-skills')).toMatchObject({ result: { plugin: { installed: true } } });
    expect(treeLines(cache)).toEqual(installed);
  }, 120_000);

  it('an installed plugin.json swapped for a named pipe is read as unreadable: eight plugins/list at once answer, and so does executor/info', async () => {
    expect(await install(await skillPackage('4.0.0'), '4.0.0', 'piped-skills')).toMatchObject({ result: { plugin: { installed: true } } });
    const manifest = join(box.executorHome, 'codex/plugins/cache', MARKETPLACE, 'piped-skills/4.0.0/.codex-plugin/plugin.json');
    const original = readFileSync(manifest);
    await rm(manifest);
    execFileSync('mkfifo', [manifest]);
    try {
      // Each list reads the installed manifest; a blocking open would hold one of the four pool threads per read.
      const lists = await Promise.all(Array.from({ length: 8 }, () => box.executor.request('plugins/list', {}, 30_000)));
      for (const list of lists) {
        expect(list).toMatchObject({ result: { plugins: expect.arrayContaining([expect.objectContaining({ pluginId: `piped-skills@${MARKETPLACE}`, description: null })]) } });
      }
      expect(await box.executor.request('executor/info', {}, 30_000)).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
    } finally {
      await rm(manifest);
      await writeFile(manifest, original);
    }
    const restored = await box.executor.request('plugins/list', {}, 30_000);
    expect(restored).toMatchObject({ result: { plugins: expect.arrayContaining([expect.objectContaining({ pluginId: `piped-skills@${MARKETPLACE}`, description: 'Team rituals' })]) } });
  }, 120_000);
});
