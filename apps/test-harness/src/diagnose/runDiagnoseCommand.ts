/**
 * `wework-harness diagnose <report.json> [--scenario <scenario.json>] [--json]`: reads a run report,
 * builds the forms evidence and prints the diagnosis (`diagnoseForms` of `@wework/elicitation-mapper`).
 *
 * When the report does not record the effective config and thread params, they are rebuilt from
 * the scenario: `--scenario`, or the file the report was written next to (`x.report.json` → `x.json`).
 *
 * Exit codes: 0 no problem found, 1 findings, 2 bad usage or an unreadable report/scenario.
 */
import { readFile } from 'node:fs/promises';
import * as E from 'fp-ts/lib/Either.js';
import { diagnoseForms } from '@wework/elicitation-mapper';
import { formatScenarioError, parseScenario, type Scenario } from '../Scenario.js';
import { formatDiagnosis } from './FormatDiagnosis.js';
import { evidenceFromReport } from './ReportEvidence.js';
import { decodeReportInput } from './ReportInput.js';

/** The command's IO: reading files and writing lines. */
export interface DiagnoseIo {
  /** The file's text, or why it cannot be read (an errno code such as `ENOENT`). */
  readonly readText: (path: string) => Promise<E.Either<string, string>>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** The IO of the real command: the file system and the console. */
export const nodeDiagnoseIo: DiagnoseIo = {
  readText: (path) =>
    readFile(path, 'utf8').then(
      (text) => E.right(text),
      (error: NodeJS.ErrnoException) => E.left(error.code ?? error.message),
    ),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** Usage of the command. */
export const DIAGNOSE_USAGE = 'usage: wework-harness diagnose <report.json> [--scenario <scenario.json>] [--json]';

interface DiagnoseArgs {
  readonly reportPath: string;
  readonly scenarioPath: string | undefined;
  readonly json: boolean;
}

function parseArgs(argv: ReadonlyArray<string>): E.Either<string, DiagnoseArgs> {
  const args = argv[0] === 'diagnose' ? argv.slice(1) : argv;
  let reportPath: string | undefined;
  let scenarioPath: string | undefined;
  let json = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--scenario') {
      scenarioPath = args[i + 1];
      if (scenarioPath === undefined) return E.left(`--scenario needs a file\n${DIAGNOSE_USAGE}`);
      i += 1;
    } else if (arg === '--json') json = true;
    else if (arg !== undefined && !arg.startsWith('--') && reportPath === undefined) reportPath = arg;
    else return E.left(`unexpected argument ${arg ?? ''}\n${DIAGNOSE_USAGE}`);
  }
  return reportPath === undefined ? E.left(DIAGNOSE_USAGE) : E.right({ reportPath, scenarioPath, json });
}

const parseJson = (text: string): E.Either<string, unknown> =>
  E.tryCatch(
    () => JSON.parse(text) as unknown,
    (error) => (error instanceof Error ? error.message : String(error)),
  );

/** The scenario to complete the report with: the given one (must load), else the sibling (if any). */
async function loadScenario(args: DiagnoseArgs, io: DiagnoseIo): Promise<E.Either<string, Scenario | undefined>> {
  const explicit = args.scenarioPath !== undefined;
  const path = args.scenarioPath ?? (args.reportPath.endsWith('.report.json') ? `${args.reportPath.slice(0, -'.report.json'.length)}.json` : undefined);
  if (path === undefined) return E.right(undefined);
  const text = await io.readText(path);
  if (E.isLeft(text)) return explicit ? E.left(`cannot read ${path}: ${text.left}`) : E.right(undefined);
  const scenario = parseScenario(text.right);
  if (E.isLeft(scenario)) return explicit ? E.left(`${path}: ${formatScenarioError(scenario.left)}`) : E.right(undefined);
  return E.right(scenario.right);
}

/**
 * Runs `wework-harness diagnose` with the arguments after `diagnose`; resolves to the exit code.
 *
 * @example
 * ```ts
 * // in cli.ts: if (command === 'diagnose') return runDiagnoseCommand(argv.slice(1));
 * process.exitCode = await runDiagnoseCommand(['scenarios/diagnose-policy-never.report.json']);
 * ```
 */
export async function runDiagnoseCommand(argv: ReadonlyArray<string>, io: DiagnoseIo = nodeDiagnoseIo): Promise<number> {
  const args = parseArgs(argv);
  if (E.isLeft(args)) {
    io.err(args.left);
    return 2;
  }
  const text = await io.readText(args.right.reportPath);
  if (E.isLeft(text)) {
    io.err(`cannot read ${args.right.reportPath}: ${text.left}`);
    return 2;
  }
  const json = parseJson(text.right);
  if (E.isLeft(json)) {
    io.err(`${args.right.reportPath} is not valid JSON: ${json.left}`);
    return 2;
  }
  const report = decodeReportInput(json.right);
  if (E.isLeft(report)) {
    io.err(`${args.right.reportPath} is not a harness report:\n${report.left.issues.map((issue) => `  - ${issue}`).join('\n')}`);
    return 2;
  }
  const needsScenario = args.right.scenarioPath !== undefined || (report.right.config ?? null) === null || (report.right.threadParams ?? null) === null;
  const scenario = needsScenario ? await loadScenario(args.right, io) : E.right(undefined);
  if (E.isLeft(scenario)) {
    io.err(scenario.left);
    return 2;
  }
  const built = evidenceFromReport(report.right, scenario.right);
  const findings = diagnoseForms(built.evidence);
  if (args.right.json) io.out(JSON.stringify({ report: args.right.reportPath, scenario: report.right.scenario, ...built, findings }, null, 2));
  else for (const line of formatDiagnosis(`${args.right.reportPath} (scenario "${report.right.scenario}")`, built, findings)) io.out(line);
  return findings.length === 0 ? 0 : 1;
}
