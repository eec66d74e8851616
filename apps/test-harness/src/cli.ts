#!/usr/bin/env node
/**
 * `wework-harness`: runs scenario files against the real codex app-server.
 *
 *   wework-harness run <scenario.json> [--report <file>] [--keep-home] [--quiet]
 *   wework-harness diagnose <report.json> [--scenario <scenario.json>] [--json]
 *
 * Exit codes of `run`: 0 the scenario passed, 1 it failed (see the report), 2 bad usage or scenario file.
 * Exit codes of `diagnose`: 0 no finding, 1 findings printed, 2 bad usage or unreadable report.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { toWireJson } from '@wework/codex-protocol';
import { formatScenarioError, parseScenario } from './Scenario.js';
import { runScenario } from './runScenario.js';
import { formatSummary } from './Summary.js';
import { DIAGNOSE_USAGE, runDiagnoseCommand } from './diagnose/index.js';

const USAGE = `usage: wework-harness run <scenario.json> [--report <file>] [--keep-home] [--quiet]\n${DIAGNOSE_USAGE}`;

interface CliArgs {
  readonly scenarioPath: string;
  readonly reportPath: string | undefined;
  readonly keepHome: boolean;
  readonly quiet: boolean;
}

function parseArgs(argv: ReadonlyArray<string>): E.Either<string, CliArgs> {
  const [command, ...rest] = argv;
  if (command !== 'run') return E.left(USAGE);
  let scenarioPath: string | undefined;
  let reportPath: string | undefined;
  let keepHome = false;
  let quiet = false;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    if (arg === '--report') {
      reportPath = rest[i + 1];
      if (reportPath === undefined) return E.left(`--report needs a file\n${USAGE}`);
      i += 1;
    } else if (arg === '--keep-home') keepHome = true;
    else if (arg === '--quiet') quiet = true;
    else if (arg !== undefined && !arg.startsWith('--') && scenarioPath === undefined) scenarioPath = arg;
    else return E.left(`unexpected argument ${arg}\n${USAGE}`);
  }
  return scenarioPath === undefined ? E.left(USAGE) : E.right({ scenarioPath, reportPath, keepHome, quiet });
}

async function main(argv: ReadonlyArray<string>): Promise<number> {
  if (argv[0] === 'diagnose') return runDiagnoseCommand(argv.slice(1));
  const args = parseArgs(argv);
  if (E.isLeft(args)) {
    console.error(args.left);
    return 2;
  }
  const { scenarioPath, keepHome, quiet } = args.right;
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
    ...(quiet ? {} : { onProgress: (line: string) => console.error(`· ${line}`) }),
  });
  const reportPath = args.right.reportPath ?? scenarioPath.replace(/\.json$/, '') + '.report.json';
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
