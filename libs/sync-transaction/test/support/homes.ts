/**
 * Sandboxes for transaction tests: a Codex home, a Claude home and a state directory under one
 * temporary root, with plausible user content, and package builders.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { FileSystemPort } from '@wework/ports';
import { rightOf } from '@wework/ports/testing';
import type { Homes } from '../../src/Layout.js';
import type { PackageEntry } from '../../src/Package.js';
import type { PackageSource } from '../../src/Transaction.js';
import { hashTrees } from '@wework/test-support';

const encoder = new TextEncoder();

/** A sandbox root with its homes. */
export interface Sandbox {
  readonly root: string;
  readonly homes: Homes;
  /** The hash of the whole sandbox (both homes and the state directory). */
  hash(): string;
  remove(): void;
}

/** Homes laid out under `root`. */
export const homesUnder = (root: string): Homes => ({
  codexHome: join(root, 'codex-home'),
  claudeHome: join(root, 'claude-home'),
  stateDirectory: join(root, 'codex-home', 'wework-plugins'),
});

/** A sandbox with user content: a config.toml with comments and another plugin, Claude settings. */
export function sandbox(prefix = 'sync-tx-'): Sandbox {
  return sandboxAt(mkdtempSync(join(tmpdir(), prefix)));
}

/** The user content of every sandbox, relative to its root: directories, then files with their modes. */
export const SANDBOX_CONTENT = {
  directories: ['codex-home', 'claude-home/plugins', 'codex-home/wework-plugins'],
  files: [
    {
      path: 'codex-home/config.toml',
      text: '# user config — keep me\nmodel = "gpt-5"   # inline comment\n\n[plugins."other@openai-curated"]\nenabled = true\n\n[features]\nplugins = true\n',
      mode: 0o640,
    },
    { path: 'claude-home/settings.json', text: `${JSON.stringify({ theme: 'dark', enabledPlugins: { 'other@claude-market': true } }, null, 2)}\n`, mode: 0o644 },
  ],
} as const;

/**
 * A fresh sandbox at a fixed `root` (removed first), so trees built in turn at the same place can be
 * compared byte for byte (registries record absolute paths).
 */
export function sandboxAt(root: string): Sandbox {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const directory of SANDBOX_CONTENT.directories) mkdirSync(join(root, directory), { recursive: true });
  for (const file of SANDBOX_CONTENT.files) writeFileSync(join(root, file.path), file.text, { mode: file.mode });
  return fromRoot(root);
}

/** The same sandbox content written through a file-system port (the in-memory one, or the real one) at `root`. */
export async function sandboxThrough(fs: FileSystemPort, root: string): Promise<Homes> {
  for (const directory of SANDBOX_CONTENT.directories) await rightOf(fs.makeDirectory(join(root, directory), 0o755));
  await rightOf(fs.writeFiles(SANDBOX_CONTENT.files.map((file) => ({ path: join(root, file.path), bytes: encoder.encode(file.text), mode: file.mode }))));
  return homesUnder(root);
}

/** A sandbox over an existing root. */
export function fromRoot(root: string): Sandbox {
  const homes = homesUnder(root);
  return {
    root,
    homes,
    hash: () => hashTrees(root),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A copy of a sandbox (modes, links and all). */
export function copySandbox(from: Sandbox, prefix = 'sync-tx-copy-'): Sandbox {
  const root = mkdtempSync(join(tmpdir(), prefix));
  rmSync(root, { recursive: true });
  cpSync(from.root, root, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  return fromRoot(root);
}


/** A plugin package with a manifest, skills, a script and a link; `variant` changes contents. */
export function pluginPackage(variant: string, extraFiles = 0): PackageEntry[] {
  const entries: PackageEntry[] = [
    { kind: 'directory', path: '.codex-plugin', mode: 0o755 },
    { kind: 'file', path: '.codex-plugin/plugin.json', mode: 0o644, bytes: encoder.encode(JSON.stringify({ name: 'forms', version: variant })) },
    { kind: 'file', path: 'skills/fill/SKILL.md', mode: 0o644, bytes: encoder.encode(`---\nname: fill\n---\nFill forms (${variant}).\n`) },
    { kind: 'file', path: 'skills/review/SKILL.md', mode: 0o644, bytes: encoder.encode(`---\nname: review\n---\nReview (${variant}).\n`) },
    { kind: 'file', path: 'bin/run.sh', mode: 0o755, bytes: encoder.encode(`#!/bin/sh\necho ${variant}\n`) },
    { kind: 'symlink', path: 'bin/latest', target: 'run.sh' },
    { kind: 'file', path: `notes-${variant}.txt`, mode: 0o600, bytes: encoder.encode(`notes ${variant}\n`) },
  ];
  for (let i = 0; i < extraFiles; i++)
    entries.push({ kind: 'file', path: `assets/d${i % 50}/f${i}.txt`, mode: 0o644, bytes: encoder.encode(`${variant} ${i} `.repeat(40)) });
  return entries;
}

/** A package source over fixed entries. */
export const sourceOf = (entries: ReadonlyArray<unknown>): PackageSource => ({ extract: () => TE.right(entries) });

/** Writes a file, creating its directory. */
export function writeFileIn(path: string, content: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}
