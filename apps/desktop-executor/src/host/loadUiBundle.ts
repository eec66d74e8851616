/**
 * Loads the web host's built bundle into memory once, at launch (`serve.js --ws --ui`): the regular
 * files directly in its `dist/` directory (links, directories and files of kinds not served are left
 * out), within `UI_BUNDLE_LIMITS`.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UI_BUNDLE_LIMITS, uiBundleOf, uiContentType, type UiBundle, type UiBundleError } from './StaticUi.js';

/** The directory of the web host's bundle (`@wework/web-host`'s `dist/`), or `null` when the package is not installed. */
export function webHostBundleDir(): string | null {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@wework/web-host/package.json')), 'dist');
  } catch {
    return null;
  }
}

/** Reads the bundle in `dir`; an unreadable or missing directory is `UiNotBuilt`. */
export async function loadUiBundle(dir: string): Promise<{ readonly _tag: 'Right'; readonly bundle: UiBundle } | { readonly _tag: 'Left'; readonly error: UiBundleError }> {
  const notBuilt = { _tag: 'Left', error: { _tag: 'UiNotBuilt', message: 'the web host is not built; run the build first' } } as const;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return notBuilt;
  }
  const files: Array<{ name: string; body: Uint8Array }> = [];
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.isFile() || uiContentType(entry.name) === null) continue;
    if (files.length >= UI_BUNDLE_LIMITS.maxFiles) return { _tag: 'Left', error: { _tag: 'UiTooLarge', message: `the web host bundle has more than ${UI_BUNDLE_LIMITS.maxFiles} files` } };
    const path = join(dir, entry.name);
    const info = await lstat(path);
    if (!info.isFile()) continue;
    bytes += info.size;
    if (bytes > UI_BUNDLE_LIMITS.maxBytes) return { _tag: 'Left', error: { _tag: 'UiTooLarge', message: `the web host bundle is larger than ${UI_BUNDLE_LIMITS.maxBytes} bytes` } };
    files.push({ name: entry.name, body: await readFile(path) });
  }
  return uiBundleOf(files);
}
