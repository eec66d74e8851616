/**
 * Node's module compile cache for the executor's start: from Node 22.1, `module.enableCompileCache(dir)`
 * keeps the V8 code of the modules loaded afterwards on disk, so a later start reuses it instead of
 * compiling them again. The serve entry enables it right after parsing its arguments, before it loads the
 * launch stage and the rest of the executor, in `<executor home>/cache/node-compile` (Node keeps one
 * subdirectory per Node version there). That is before the home is locked: a second executor on the same
 * home (which then exits) may write entries too, and an entry torn by two writers fails Node's check and is
 * compiled again, like a corrupt one. On an older Node, with `NODE_DISABLE_COMPILE_CACHE` set, or when the directory cannot
 * be written, the executor starts exactly as without it: this never throws and never stops a start.
 * `NODE_COMPILE_CACHE` set by the user wins (the cache is then already on, in the user's directory).
 *
 * The directory needs no key per build: Node keeps one entry per module file with a checksum of that
 * module's source, compiles a module whose source changed (a new build) again and rewrites its entry,
 * and ignores and rewrites an entry it cannot read; entries are kept per Node version (and V8 flags).
 */
import { mkdirSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import type { LogEntry } from '@wework/ports';

/** Where the compile cache lives, relative to the executor home. */
export const COMPILE_CACHE_DIR = join('cache', 'node-compile');

/** The part of `node:module` this uses (Node 22.1+; the types of Node 20 have none of it). */
export interface CompileCacheApi {
  readonly enableCompileCache?: (directory: string) => { readonly status: number; readonly message?: string; readonly directory?: string };
  readonly constants?: { readonly compileCacheStatus?: Readonly<Record<string, number>> };
}

/** What enabling the compile cache came to. */
export type CompileCacheOutcome =
  | { readonly _tag: 'Enabled'; readonly directory: string }
  | { readonly _tag: 'AlreadyEnabled'; readonly directory: string }
  | { readonly _tag: 'Unsupported' }
  | { readonly _tag: 'Disabled' }
  /** `code` names the failure: Node's status (`FAILED`, or the number of a status it did not name) or the thrown error's code or name. */
  | { readonly _tag: 'Failed'; readonly code: string };

/** A word-like code (`FAILED`, `EACCES`, `ERR_INVALID_ARG_TYPE`, `TypeError`), or null for anything else. */
const codeOf = (value: unknown): string | null => (typeof value === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(value) ? value : null);

/** The code of a thrown value: its `code` when that is a code, else its `name`, else `Thrown`. */
const thrownCode = (error: unknown): string =>
  (typeof error === 'object' && error !== null && 'code' in error ? codeOf(error.code) : null) ?? (error instanceof Error ? codeOf(error.name) : null) ?? 'Thrown';

/**
 * Enables the compile cache in `directory` where this Node has one (`api` is `node:module` unless a test
 * passes another). Never throws. Node's failure text (which may name the directory) is not kept.
 */
export function enableCompileCache(directory: string, api: CompileCacheApi = nodeModule as CompileCacheApi): CompileCacheOutcome {
  if (typeof api.enableCompileCache !== 'function') return { _tag: 'Unsupported' };
  const status = api.constants?.compileCacheStatus ?? {};
  try {
    const result = api.enableCompileCache(directory);
    if (result.status === status['ENABLED']) return { _tag: 'Enabled', directory: result.directory ?? directory };
    if (result.status === status['ALREADY_ENABLED']) return { _tag: 'AlreadyEnabled', directory: result.directory ?? directory };
    if (result.status === status['DISABLED']) return { _tag: 'Disabled' };
    const named = Object.entries(status).find(([, value]) => value === result.status)?.[0];
    return { _tag: 'Failed', code: codeOf(named) ?? `status ${Number(result.status)}` };
  } catch (error) {
    return { _tag: 'Failed', code: thrownCode(error) };
  }
}

/**
 * Enables the compile cache in `<executorHome>/cache/node-compile`, creating the executor home private to
 * this user first (0700, as the home lock would) so that Node does not create it with the default mode.
 * A home that cannot be made is a `Failed` outcome with the error's code (the lock then reports it). Never throws.
 */
export function enableCompileCacheIn(executorHome: string, api: CompileCacheApi = nodeModule as CompileCacheApi): CompileCacheOutcome {
  try {
    mkdirSync(executorHome, { recursive: true, mode: 0o700 });
  } catch (error) {
    return { _tag: 'Failed', code: thrownCode(error) };
  }
  return enableCompileCache(join(executorHome, COMPILE_CACHE_DIR), api);
}

/**
 * The log entry of an outcome: its status and, for a failure, its code, with the Node version; never a
 * directory or Node's own text. A failure is a warning (the start goes on), the rest is debug detail.
 */
export function compileCacheLogEntry(outcome: CompileCacheOutcome, nodeVersion: string): LogEntry {
  return outcome._tag === 'Failed'
    ? { event: 'compile cache unavailable', fields: { status: outcome._tag, code: outcome.code, node: nodeVersion }, level: 'warn' }
    : { event: 'compile cache', fields: { status: outcome._tag, node: nodeVersion }, level: 'debug' };
}
