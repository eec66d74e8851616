#!/usr/bin/env node
/**
 * `wework-harness`: runs scenario files against the real codex app-server.
 *
 *   wework-harness run <scenario.json> [--report=<file>] [--keep-home] [--quiet] [--codex=<path>]
 *   wework-harness diagnose <report.json> [--scenario=<scenario.json>] [--json]
 *   wework-harness --help | --version
 *
 * Options are read by `node:util` `parseArgs`: `--opt value` and `--opt=value`, unknown options refused.
 * `--help` (and `help`) print the usage and exit 0; with no arguments at all the usage goes out with exit 2.
 * Exit codes of `run`: 0 the scenario passed, 1 it failed (see the report), 2 bad usage or scenario file.
 * Exit codes of `diagnose`: 0 no finding, 1 findings printed, 2 bad usage or unreadable report.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { toWireJson } from '@wework/codex-protocol';
import { formatScenarioError, parseScenario } from './Scenario.js';
import { runScenario } from './runScenario.js';
import { formatSummary } from './Summary.js';
import { DIAGNOSE_USAGE, runDiagnoseCommand } from './diagnose/index.js';

const RUN_USAGE = 'usage: wework-harness run <scenario.json> [--report=<file>] [--keep-home] [--quiet] [--codex=<path>]';
const USAGE = `${RUN_USAGE}
${DIAGNOSE_USAGE}
       wework-harness --help | --version

Runs a conversation against the real codex app-server with a scripted model and real MCP plugins,
and writes a JSON report; \`diagnose\` explains a run whose plugin forms did not reach the user.
See docs/harness.md.`;

/** The package version, read once from the package.json beside the build. */
const version = (): string => (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

interface RunArgs {
  readonly scenarioPath: string;
  readonly reportPath: string | undefined;
  readonly keepHome: boolean;
  readonly quiet: boolean;
  /** `--codex`, else `WEWORK_CODEX_PATH`: a Codex binary or npm wrapper script instead of the installed one. */
  readonly codexPath: string | undefined;
}

/** What the command line asks for: a command, help, the version, or a usage error (a message). */
type Invocation = { readonly _tag: 'Help' } | { readonly _tag: 'Version' } | { readonly _tag: 'Run'; readonly args: RunArgs } | { readonly _tag: 'Diagnose'; readonly argv: ReadonlyArray<string> };

/** `node:util` `parseArgs`, strict: an unknown option or a missing value is a usage error. */
function parseRun(argv: ReadonlyArray<string>): E.Either<string, Invocation> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { report: { type: 'string' }, 'keep-home': { type: 'boolean' }, quiet: { type: 'boolean' }, codex: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help === true) return E.right({ _tag: 'Help' });
    const [scenarioPath, ...extra] = positionals;
    if (scenarioPath === undefined) return E.left(`run needs a scenario file\n${RUN_USAGE}`);
    if (extra.length > 0) return E.left(`run takes one scenario file, got ${positionals.length}\n${RUN_USAGE}`);
    const codexPath = values.codex ?? (process.env['WEWORK_CODEX_PATH'] === '' ? undefined : process.env['WEWORK_CODEX_PATH']);
    return E.right({ _tag: 'Run', args: { scenarioPath, reportPath: values.report, keepHome: values['keep-home'] === true, quiet: values.quiet === true, codexPath } });
  } catch (error) {
    return E.left(`${error instanceof Error ? error.message : String(error)}\n${RUN_USAGE}`);
  }
}

function parseInvocation(argv: ReadonlyArray<string>): E.Either<string, Invocation> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return E.right({ _tag: 'Help' });
  if (command === '--version' || command === '-V') return E.right({ _tag: 'Version' });
  if (command === 'run') return parseRun(rest);
  if (command === 'diagnose') return E.right({ _tag: 'Diagnose', argv: rest });
  return E.left(`unknown command; the commands are run and diagnose\n${USAGE}`);
}

async function main(argv: ReadonlyArray<string>): Promise<number> {
  const invocation = parseInvocation(argv);
  if (E.isLeft(invocation)) {
    console.error(invocation.left);
    return 2;
  }
  switch (invocation.right._tag) {
    case 'Help':
      if (argv.length > 0) console.log(USAGE);
      else console.error(USAGE);
      return argv.length > 0 ? 0 : 2;
    case 'Version':
      console.log(version());
      return 0;
    case 'Diagnose':
      return runDiagnoseCommand(invocation.right.argv);
    case 'Run':
      return run(invocation.right.args);
  }
}

async function run(args: RunArgs): Promise<number> {
  const { scenarioPath, keepHome, quiet, codexPath } = args;
  const text = await readFile(scenarioPath, 'utf8').then(
    (content) => E.right(content),
    (error: NodeJS.ErrnoException) => E.left(error.code ?? error.message),
  );
  if (E.isLeft(text)) {
    console.error(`cannot read ${scenarioPath}: ${text.left}`);
    return 2;
  }
  const scenario = parseScenario(text.right);
  if (E.isLeft(scenario)) {
    console.error(`${scenarioPath}: ${formatScenarioError(scenario.left)}`);
    return 2;
  }
  const report = await runScenario({
    scenario: scenario.right,
    baseDir: dirname(resolve(scenarioPath)),
    keepWorkDir: keepHome,
    ...(codexPath === undefined ? {} : { codexPath: resolve(codexPath) }),
    ...(quiet ? {} : { onProgress: (line: string) => console.error(`· ${line}`) }),
  });
  const reportPath = args.reportPath ?? scenarioPath.replace(/\.json$/, '') + '.report.json';
  await writeFile(reportPath, JSON.stringify(toWireJson(report), null, 2) + '\n');
  console.log(formatSummary(report));
  console.log(`report: ${reportPath}`);
  return report.passed ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  },
);
