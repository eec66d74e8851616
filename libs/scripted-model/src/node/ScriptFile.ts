/**
 * A script file read from disk: at most {@link MAX_SCRIPT_FILE_BYTES} bytes (a larger file is refused
 * before it is read whole), UTF-8, then parsed and decoded by the pure `parseScript`. Errors are
 * `_tag`ged values that name the file's problem by line and column or by field path, never quoting it.
 */
import { open } from 'node:fs/promises';
import * as E from 'fp-ts/lib/Either.js';
import { formatScriptError, parseScript, type Script, type ScriptError } from '../Script.js';

/** The largest script file read: 4 MiB, far above any test's script. */
export const MAX_SCRIPT_FILE_BYTES = 4 * 1024 * 1024;

/** The file could not be opened or read; `code` is the system's error code (`ENOENT`, `EISDIR`, ...). */
export interface ScriptFileUnreadable {
  readonly _tag: 'ScriptFileUnreadable';
  readonly code: string;
}

/** The file holds more than `limitBytes` bytes. */
export interface ScriptFileTooLarge {
  readonly _tag: 'ScriptFileTooLarge';
  readonly limitBytes: number;
}

/** The file's bytes are not UTF-8 text. */
export interface ScriptFileNotText {
  readonly _tag: 'ScriptFileNotText';
}

/** Why a script file was not read: the file itself, or its content ({@link ScriptError}). */
export type ScriptFileError = ScriptFileUnreadable | ScriptFileTooLarge | ScriptFileNotText | ScriptError;

/** Options of {@link readScriptFile}. */
export interface ReadScriptFileOptions {
  /** Default {@link MAX_SCRIPT_FILE_BYTES}. */
  readonly maxBytes?: number;
}

const errorCode = (error: unknown): string => (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'EIO');

async function readBounded(path: string, limit: number): Promise<E.Either<ScriptFileError, Uint8Array>> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return E.left({ _tag: 'ScriptFileUnreadable', code: errorCode(error) });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return E.left({ _tag: 'ScriptFileUnreadable', code: stat.isDirectory() ? 'EISDIR' : 'ENOTREGULAR' });
    if (stat.size > limit) return E.left({ _tag: 'ScriptFileTooLarge', limitBytes: limit });
    // Read one byte past the limit: a file that grew since the stat is refused too.
    const buffer = new Uint8Array(limit + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > limit) return E.left({ _tag: 'ScriptFileTooLarge', limitBytes: limit });
    }
    return E.right(buffer.subarray(0, length));
  } catch (error) {
    return E.left({ _tag: 'ScriptFileUnreadable', code: errorCode(error) });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Reads, parses and decodes a script file (the JSON format of the package README).
 *
 * @example
 * ```ts
 * import { readScriptFile } from '@wework/scripted-model/node';
 * const script = await readScriptFile('examples/python-host/script.json');
 * // Right([...]) or Left({ _tag: 'ScriptDecodeError', issues: [{ path: 'script[0].steps[1]', message: 'unknown step "sya" ...' }] })
 * ```
 */
export async function readScriptFile(path: string, options: ReadScriptFileOptions = {}): Promise<E.Either<ScriptFileError, Script>> {
  const bytes = await readBounded(path, options.maxBytes ?? MAX_SCRIPT_FILE_BYTES);
  if (E.isLeft(bytes)) return bytes;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.right);
  } catch {
    return E.left({ _tag: 'ScriptFileNotText' });
  }
  return parseScript(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

/** Renders a {@link ScriptFileError} for a person: what is wrong and where, never the file's content. */
export function formatScriptFileError(error: ScriptFileError): string {
  switch (error._tag) {
    case 'ScriptFileUnreadable':
      return `the script file cannot be read (${error.code})`;
    case 'ScriptFileTooLarge':
      return `the script file is larger than ${error.limitBytes} bytes`;
    case 'ScriptFileNotText':
      return 'the script file is not UTF-8 text';
    default:
      return formatScriptError(error);
  }
}
