/**
 * The command line of the demo (`npm start -- [options]`, `dist/main.js`): `--codex PATH` runs another
 * Codex than the installed one (a native binary or an npm wrapper script; `WEWORK_CODEX_PATH` too, the
 * option wins), `--help` prints the usage. Read by `node:util` `parseArgs`: `--opt value` and
 * `--opt=value`, unknown options refused. Every function here is pure.
 */
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';

/** What the demo was asked to do. */
export type DemoInvocation = { readonly _tag: 'Run'; readonly codexPath: string | null } | { readonly _tag: 'Help' };

/** The usage. */
export const DEMO_USAGE = `usage: npm start -- [--codex=PATH]
  --codex=PATH   a Codex binary or npm wrapper script to run (else WEWORK_CODEX_PATH, else the installed one)
  --help`;

/**
 * Reads the demo's command line (without `node` and the script) and the value of `WEWORK_CODEX_PATH`
 * (`undefined` or empty: not set).
 * @example
 * parseDemoInvocation(['--codex=/opt/codex'], undefined); // Right({ _tag: 'Run', codexPath: '/opt/codex' })
 * parseDemoInvocation([], '/usr/local/bin/codex'); // Right({ _tag: 'Run', codexPath: '/usr/local/bin/codex' })
 */
export function parseDemoInvocation(argv: ReadonlyArray<string>, codexPathFromEnv: string | undefined): E.Either<string, DemoInvocation> {
  let values: { readonly codex?: string | undefined; readonly help?: boolean | undefined };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { codex: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    return E.left(`${error instanceof Error ? error.message : String(error)}\n${DEMO_USAGE}`);
  }
  if (values.help === true) return E.right({ _tag: 'Help' });
  if (values.codex === '') return E.left(`--codex needs a value\n${DEMO_USAGE}`);
  const fromEnv = codexPathFromEnv === undefined || codexPathFromEnv === '' ? null : codexPathFromEnv;
  return E.right({ _tag: 'Run', codexPath: values.codex ?? fromEnv });
}
