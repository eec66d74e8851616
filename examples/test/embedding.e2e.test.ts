/**
 * The embedding guide's examples (`docs/embedding/*.md`): every file in `examples/embedding/` is included
 * in a page, each page's `<!-- include: … -->` block is that file byte for byte, and each built example
 * (`examples/dist/embedding/*.js`) exits 0 printing exactly the page's `<!-- output: … -->` block. The
 * executor example runs the real app-server with the forms plugin and the scripted model.
 *
 * The consumer in `examples/embedding/consumer/` is compiled with each `tsconfig.<moduleResolution>.json`
 * beside it, as `docs/embedding.md`'s table says: `node16`, `nodenext` and `bundler` compile, `node10`
 * fails with TS2307 on every `@wework/*` import and nothing else.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(EXAMPLES, '..');
const PAGES = join(ROOT, 'docs', 'embedding');
const EMBEDDING = join(EXAMPLES, 'embedding');

/** The block of kind `marker` (`include` or `output`) of each example a page names, by the example's repository path. */
function blocks(marker: 'include' | 'output'): Map<string, { readonly page: string; readonly text: string }> {
  const found = new Map<string, { page: string; text: string }>();
  for (const page of readdirSync(PAGES).filter((name) => name.endsWith('.md'))) {
    const markdown = readFileSync(join(PAGES, page), 'utf8');
    for (const match of markdown.matchAll(new RegExp(`<!-- ${marker}: (\\S+) -->\\n\`\`\`\\w+\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))) {
      const [, path, text] = match;
      expect(found.has(path!), `${path} has two ${marker} blocks`).toBe(false);
      found.set(path!, { page, text: text! });
    }
  }
  return found;
}

const examples = readdirSync(EMBEDDING).filter((name) => name.endsWith('.ts')).sort();

describe('the embedding guide', () => {
  it('includes every example file, exactly as it is', () => {
    const included = blocks('include');
    expect([...included.keys()].sort()).toEqual(examples.map((name) => `examples/embedding/${name}`));
    for (const [path, { page, text }] of included) expect(text, `docs/embedding/${page}: the block of ${path}`).toBe(readFileSync(join(ROOT, path), 'utf8'));
  });

  const outputs = blocks('output');
  it.each(examples)('runs %s and prints what its page shows', (name) => {
    const built = join(EXAMPLES, 'dist', 'embedding', name.replace(/\.ts$/, '.js'));
    expect(existsSync(built), `${built} is not built (npx nx build examples)`).toBe(true);
    const run = spawnSync(process.execPath, [built], { cwd: ROOT, encoding: 'utf8', timeout: 150_000 });
    expect(run.status, `${name} failed:\n${run.stderr}`).toBe(0);
    const shown = outputs.get(`examples/embedding/${name}`);
    expect(shown, `no output block of ${name}`).toBeDefined();
    expect(run.stdout).toBe(shown?.text);
  });
});

describe('the TypeScript settings of docs/embedding.md', () => {
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const compile = (resolution: string) => spawnSync(process.execPath, [tsc, '-p', join(EMBEDDING, 'consumer', `tsconfig.${resolution}.json`)], { encoding: 'utf8', timeout: 120_000 });

  it.each(['node16', 'nodenext', 'bundler'])('moduleResolution %s compiles a consumer of the libraries', (resolution) => {
    const run = compile(resolution);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('moduleResolution node10 cannot find them: TS2307 on each @wework import, and no other error', () => {
    const run = compile('node10');
    expect(run.status).not.toBe(0);
    const errors = run.stdout.split('\n').filter((line) => / error TS\d+/.test(line));
    expect(errors.map((line) => /error (TS\d+): Cannot find module '([^']+)'/.exec(line)?.slice(1, 3))).toEqual([
      ['TS2307', '@wework/elicitation-mapper'],
      ['TS2307', '@wework/mention-serializer'],
    ]);
    expect(run.stdout).toContain("Consider updating to 'node16', 'nodenext', or 'bundler'.");
  });
});
