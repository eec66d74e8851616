/**
 * Points a Codex home at a scripted model: `<codex home>/config.toml` edited by the pure
 * `withScriptedModel` (the project's config editor, keeping every other key and comment) and written
 * back whole (a temporary file renamed over it, mode 0600, through a symlinked config.toml to its
 * target as Codex does). A missing home or file is created. Errors are `_tag`ged values that never
 * quote the file.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { TomlEditError } from '@wework/config-toml';
import { withScriptedModel, type ScriptedModelConfigOptions } from '../ProviderConfig.js';

/** The largest config.toml edited: 4 MiB. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** The home or its config.toml could not be created, read or written; `code` is the system's error code. */
export interface CodexConfigIoFailed {
  readonly _tag: 'CodexConfigIoFailed';
  readonly operation: 'create' | 'read' | 'write';
  readonly code: string;
}

/** The existing config.toml is larger than `limitBytes`. */
export interface CodexConfigTooLarge {
  readonly _tag: 'CodexConfigTooLarge';
  readonly limitBytes: number;
}

/** The existing config.toml could not be edited (not TOML, or the keys are written inline): the config editor's error. */
export interface CodexConfigNotEditable {
  readonly _tag: 'CodexConfigNotEditable';
  readonly error: TomlEditError;
}

/** Why {@link writeScriptedModelConfig} left the home as it was. */
export type CodexConfigError = CodexConfigIoFailed | CodexConfigTooLarge | CodexConfigNotEditable;

const errorCode = (error: unknown): string => (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'EIO');

async function readExisting(path: string): Promise<E.Either<CodexConfigError, string>> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? E.right('') : E.left({ _tag: 'CodexConfigIoFailed', operation: 'read', code: errorCode(error) });
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_CONFIG_BYTES) return E.left({ _tag: 'CodexConfigTooLarge', limitBytes: MAX_CONFIG_BYTES });
    const text = await handle.readFile('utf8');
    return text.length > MAX_CONFIG_BYTES ? E.left({ _tag: 'CodexConfigTooLarge', limitBytes: MAX_CONFIG_BYTES }) : E.right(text);
  } catch (error) {
    return E.left({ _tag: 'CodexConfigIoFailed', operation: 'read', code: errorCode(error) });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Writes the scripted model (`model_provider`, `model`, `[model_providers.<id>]`, the fail-fast
 * `[features]`) into `<codexHome>/config.toml`, keeping everything else in it; returns the file's path.
 * The executor's Codex home is `<executor home>/codex`.
 *
 * @example
 * ```ts
 * import { startScriptedModel, writeScriptedModelConfig } from '@wework/scripted-model/node';
 * const model = await startScriptedModel({ script });
 * const written = await writeScriptedModelConfig(join(executorHome, 'codex'), { baseUrl: model.url });
 * // Right('/.../executor/codex/config.toml')
 * ```
 */
export async function writeScriptedModelConfig(codexHome: string, options: ScriptedModelConfigOptions): Promise<E.Either<CodexConfigError, string>> {
  try {
    await mkdir(codexHome, { recursive: true, mode: 0o700 });
  } catch (error) {
    return E.left({ _tag: 'CodexConfigIoFailed', operation: 'create', code: errorCode(error) });
  }
  const path = join(codexHome, 'config.toml');
  const existing = await readExisting(path);
  if (E.isLeft(existing)) return existing;
  const edited = withScriptedModel(existing.right, options);
  if (E.isLeft(edited)) return E.left({ _tag: 'CodexConfigNotEditable', error: edited.left });
  if (edited.right === existing.right && existing.right !== '') return E.right(path);
  // A symlinked config.toml is written through to its target, as Codex does.
  const target = await realpath(path).catch(() => path);
  const temporary = join(dirname(target), `.config.toml.${randomUUID()}.tmp`);
  try {
    await writeFile(temporary, edited.right, { mode: 0o600, flag: 'wx' });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    return E.left({ _tag: 'CodexConfigIoFailed', operation: 'write', code: errorCode(error) });
  }
  return E.right(path);
}

/** Renders a {@link CodexConfigError} for a person, never quoting the file. */
export function formatCodexConfigError(error: CodexConfigError): string {
  switch (error._tag) {
    case 'CodexConfigIoFailed':
      return `cannot ${error.operation} the Codex home's config.toml (${error.code})`;
    case 'CodexConfigTooLarge':
      return `the Codex home's config.toml is larger than ${error.limitBytes} bytes`;
    case 'CodexConfigNotEditable':
      switch (error.error._tag) {
        case 'MalformedConfig':
          return `the Codex home's config.toml is not valid TOML (line ${error.error.line}, column ${error.error.column}: ${error.error.message})`;
        default:
          return `the Codex home's config.toml cannot be edited: ${error.error.message}`;
      }
  }
}
