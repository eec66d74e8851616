/**
 * Every shell block of the root README.md, of docs/, of the apps' READMEs and of the TypeScript host
 * example's README runs as written, from the repository root of this (installed) clone. A block is a fence whose info string starts with `sh`; what
 * follows `sh` says how it is run:
 *
 * - nothing: each line runs in one `bash -e` (comments and all) and the block must exit 0;
 * - `exit=N`: the block must exit with N (e.g. `wework-harness diagnose` with findings: 1);
 * - `long-running until="TEXT"`: a server — it must print TEXT (stdout or stderr), is then stopped with
 *   SIGINT like Ctrl-C, and must exit within 30 s, leaving nothing of its process group running;
 * - `output`: as nothing, and the `text` fence right after the next `<!-- output -->` comment must appear
 *   in what it printed: its lines in order, each a whole line, `…` standing for any characters;
 * - `not-run="REASON"`: not run; the reason says why (a reinstall of the clone, another Codex, your own
 *   project, the registry, a browser, an OpenAI account, the suite this test belongs to).
 *
 * A fence may be indented, as in a list item. A fence of another language (`text`, `json`, `ts`) is not a command. The blocks run one after the
 * other, in the order of the files below; each must finish within `BLOCK_TIMEOUT_MS`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BLOCK_TIMEOUT_MS = 600_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * The markdown files whose shell blocks are checked: README.md, docs/**, apps/*\/README.md and the
 * TypeScript host example's README.
 */
function markdownFiles(): ReadonlyArray<string> {
  const docs = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? docs(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
  const apps = readdirSync(join(ROOT, 'apps')).map((app) => join(ROOT, 'apps', app, 'README.md')).filter((path) => existsSync(path));
  return [join(ROOT, 'README.md'), ...docs(join(ROOT, 'docs')).sort(), ...apps.sort(), join(ROOT, 'examples', 'typescript-host', 'README.md')];
}

interface Block {
  readonly file: string;
  readonly line: number;
  readonly script: string;
  readonly attributes: ReadonlyMap<string, string>;
  /** The `text` fence after the next `<!-- output -->`, for an `output` block. */
  readonly output: string | null;
}

/** The attributes of an info string after `sh`: `name` or `name=value` or `name="value with spaces"`. */
function attributesOf(info: string): Map<string, string> {
  return new Map([...info.matchAll(/([\w-]+)(?:=(?:"([^"]*)"|(\S+)))?/g)].map((match) => [match[1]!, match[2] ?? match[3] ?? '']));
}

function blocksOf(file: string): ReadonlyArray<Block> {
  const markdown = readFileSync(file, 'utf8');
  const blocks: Block[] = [];
  // A fence may be indented (inside a list item); its lines lose that indentation.
  for (const match of markdown.matchAll(/^( *)```sh(?:[ \t]+(.*))?\n([\s\S]*?)^\1```$/gm)) {
    const end = (match.index ?? 0) + match[0].length;
    const rest = markdown.slice(end);
    const indent = match[1]!.length;
    const attributes = attributesOf(match[2] ?? '');
    const output = attributes.has('output') ? (/<!-- output -->\n```text\n([\s\S]*?)^```$/m.exec(rest)?.[1] ?? null) : null;
    const script = match[3]!.split('\n').map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length))).join('\n');
    blocks.push({ file: relative(ROOT, file), line: markdown.slice(0, match.index).split('\n').length, script, attributes, output });
  }
  return blocks;
}

/** The block's process: its exit code and what it printed. */
interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `script` with bash from the root, in its own process group; `until` stops it once that text was printed. */
function run(script: string, until?: string): Promise<Ran & { readonly printedUntil: boolean; readonly pid: number | undefined }> {
  const child = spawn('bash', ['-e', '-c', script], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let printedUntil = false;
  const stopGroup = (signal: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  const watch = (): void => {
    if (until !== undefined && !printedUntil && (stdout + stderr).includes(until)) {
      printedUntil = true;
      stopGroup('SIGINT');
      setTimeout(() => stopGroup('SIGKILL'), STOP_TIMEOUT_MS).unref();
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    watch();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    watch();
  });
  const timer = setTimeout(() => stopGroup('SIGKILL'), BLOCK_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, printedUntil, pid: child.pid });
    });
  });
}

/** Whether any process of the group `pid` is still alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `expected`'s lines, in order, each matching a whole line of `printed`; `…` matches any characters. */
function appearsIn(expected: string, printed: string): boolean {
  const lines = printed.split('\n');
  let at = 0;
  for (const line of expected.replace(/\n$/, '').split('\n')) {
    const pattern = new RegExp(`^${line.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    while (at < lines.length && !pattern.test(lines[at]!)) at++;
    if (at === lines.length) return false;
    at++;
  }
  return true;
}

const blocks = markdownFiles().flatMap(blocksOf);
const KNOWN = new Set(['exit', 'long-running', 'until', 'output', 'not-run']);

describe('the shell blocks of README.md, docs/ and the apps\' READMEs', () => {
  it('are marked with what the test knows, and every not-run block says why', () => {
    for (const block of blocks) {
      const where = `${block.file}:${block.line}`;
      for (const name of block.attributes.keys()) expect(KNOWN.has(name), `${where}: unknown attribute ${name}`).toBe(true);
      if (block.attributes.has('not-run')) expect(block.attributes.get('not-run'), `${where}: not-run needs a reason`).not.toBe('');
      if (block.attributes.has('long-running')) expect(block.attributes.get('until'), `${where}: long-running needs until="…"`).toBeTruthy();
      if (block.attributes.has('output')) expect(block.output, `${where}: no <!-- output --> text fence after the block`).not.toBeNull();
    }
  });

  for (const block of blocks) {
    const where = `${block.file}:${block.line}`;
    const reason = block.attributes.get('not-run');
    if (reason !== undefined) {
      it.skip(`${where}: not run (${reason})`, () => undefined);
      continue;
    }
    it(`${where}: ${block.script.split('\n')[0]}`, async () => {
      const until = block.attributes.has('long-running') ? block.attributes.get('until') : undefined;
      const ran = await run(block.script, until);
      const shown = `exit ${ran.code ?? ran.signal}\n--- stdout\n${ran.stdout.slice(-4000)}\n--- stderr\n${ran.stderr.slice(-4000)}`;
      if (until !== undefined) {
        expect(ran.printedUntil, `${where} never printed ${until}\n${shown}`).toBe(true);
        expect(ran.code === 0 || ran.code === 130 || ran.signal === 'SIGINT', `${where} did not stop on SIGINT\n${shown}`).toBe(true);
        const deadline = Date.now() + STOP_TIMEOUT_MS;
        while (ran.pid !== undefined && groupAlive(ran.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
        expect(ran.pid !== undefined && groupAlive(ran.pid), `${where} left processes of its group running`).toBe(false);
        return;
      }
      expect(ran.code, `${where}\n${shown}`).toBe(Number(block.attributes.get('exit') ?? '0'));
      if (block.output !== null) expect(appearsIn(block.output, ran.stdout), `${where}: the output shown is not what it printed\n${shown}`).toBe(true);
    }, BLOCK_TIMEOUT_MS + STOP_TIMEOUT_MS);
  }
});

