import { describe, expect, it } from 'vitest';
import { freshConfigText, prepareConfig } from '../src/index.js';
import { failingPort } from '../src/testing.js';
import { MemoryFileSystem } from '@wework/ports/testing';
import { leftOf, rightOf, testLayout } from './support.js';

const layout = testLayout();
const home = (): MemoryFileSystem => new MemoryFileSystem().addDirectory(layout.home, 0o700);

describe('prepareConfig', () => {
  it('creates a missing config.toml with mode 0600, then leaves it alone', async () => {
    const fs = home();
    expect(await rightOf(prepareConfig(fs, layout))).toEqual({ _tag: 'Created', path: layout.configFile });
    expect(fs.entryAt(layout.configFile)).toMatchObject({ kind: 'file', mode: 0o600 });
    expect(fs.textAt(layout.configFile)).toBe(freshConfigText());
    expect(await rightOf(prepareConfig(fs, layout))).toMatchObject({ _tag: 'Unchanged' });
  });

  it('normalizes an existing file atomically, keeping its mode', async () => {
    const fs = home().addFile(layout.configFile, '# keep me\ninstructions = "Be brief."\n', 0o640);
    const result = await rightOf(prepareConfig(fs, layout));
    expect(result).toMatchObject({ _tag: 'Normalized', path: layout.configFile });
    expect(fs.entryAt(layout.configFile)).toMatchObject({ kind: 'file', mode: 0o640 });
    const text = fs.textAt(layout.configFile) ?? '';
    expect(text).toContain('# keep me');
    expect(text).toContain('developer_instructions = "Be brief."');
    expect(text).toContain('personality = "pragmatic"');
    expect(await rightOf(prepareConfig(fs, layout))).toMatchObject({ _tag: 'Unchanged' });
  });

  it('leaves a malformed file untouched', async () => {
    const fs = home().addFile(layout.configFile, 'instructions = "unfinished\n', 0o600);
    expect(await leftOf(prepareConfig(fs, layout))).toMatchObject({ _tag: 'MalformedConfig', line: 1 });
    expect(fs.textAt(layout.configFile)).toBe('instructions = "unfinished\n');
  });

  it('writes through a link to the target, keeping the link', async () => {
    const fs = home().addFile('/dotfiles/codex.toml', 'instructions = "x"\n', 0o644).addSymlink('/dotfiles/codex.toml', layout.configFile);
    expect(await rightOf(prepareConfig(fs, layout))).toMatchObject({ _tag: 'Normalized', path: '/dotfiles/codex.toml' });
    expect(fs.entryAt(layout.configFile)).toEqual({ kind: 'symlink', target: '/dotfiles/codex.toml' });
    expect(fs.entryAt('/dotfiles/codex.toml')).toMatchObject({ kind: 'file', mode: 0o644 });
    expect(fs.textAt(layout.configFile)).toContain('developer_instructions = "x"');
  });

  it('reports a dangling link, a directory and a non-UTF-8 file without writing', async () => {
    const dangling = home().addSymlink('/nowhere/config.toml', layout.configFile);
    expect(await leftOf(prepareConfig(dangling, layout))).toEqual({ _tag: 'ConfigLinkBroken', path: layout.configFile, target: '/nowhere/config.toml' });
    expect(dangling.entryAt('/nowhere/config.toml')).toBeUndefined();
    expect(await leftOf(prepareConfig(home().addDirectory(layout.configFile), layout))).toEqual({ _tag: 'ConfigNotAFile', path: layout.configFile });
    expect(await leftOf(prepareConfig(home().addFile(layout.configFile, new Uint8Array([0xff])), layout))).toEqual({ _tag: 'ConfigNotText', path: layout.configFile });
  });

  it('keeps the old file when the replace fails', async () => {
    const fs = home().addFile(layout.configFile, 'instructions = "x"\n', 0o600);
    const error = await leftOf(prepareConfig(failingPort(fs, { operation: 'rename' }), layout));
    expect(error).toMatchObject({ _tag: 'FileSystemError', operation: 'rename' });
    expect(fs.textAt(layout.configFile)).toBe('instructions = "x"\n');
    expect(fs.tree(layout.home).map(([path]) => path)).toEqual([layout.home, layout.configFile]);
  });
});
