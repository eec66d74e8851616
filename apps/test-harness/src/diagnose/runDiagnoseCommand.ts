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
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { formatJsonSyntaxError, parseJsonText } from '@wework/decode-issues';
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
export const DIAGNOSE_USAGE = 'usage: wework-harness diagnose <report.json> [--scenario=<scenario.json>] [--json]';

interface DiagnoseArgs {
  readonly reportPath: string;
  readonly scenarioPath: string | undefined;
  readonly json: boolean;
}

/** `node:util` `parseArgs`, strict: an unknown option or a missing value is a usage error; `--help` is `Help`. */
function parseDiagnoseArgs(argv: ReadonlyArray<string>): E.Either<string, DiagnoseArgs | 'Help'> {
  const args = argv[0] === 'diagnose' ? argv.slice(1) : argv;
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { scenario: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help === true) return E.right('Help');
    const [reportPath, ...extra] = positionals;
    if (reportPath === undefined) return E.left(`diagnose needs a report file\n${DIAGNOSE_USAGE}`);
    if (extra.length > 0) return E.left(`diagnose takes one report file, got ${positionals.length}\n${DIAGNOSE_USAGE}`);
    return E.right({ reportPath, scenarioPath: values.scenario, json: values.json === true });
  } catch (error) {
    return E.left(`${error instanceof Error ? error.message : String(error)}\n${DIAGNOSE_USAGE}`);
  }
}

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
 * What to do when a report is not there: reports are written by runs (`<name>.report.json` next to
 * `<name>.json`), so a fresh clone has none until its scenario was run.
 */
function missingReportHint(reportPath: string, reason: string): string {
  if (reason !== 'ENOENT') return '';
  const scenario = /^(.*)\.report\.json$/.exec(reportPath)?.[1];
  return scenario === undefined ? '' : ` (a report is written by a run: \`wework-harness run ${scenario}.json\` writes this one)`;
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
  const args = parseDiagnoseArgs(argv);
  if (E.isLeft(args)) {
    io.err(args.left);
    return 2;
  }
  if (args.right === 'Help') {
    io.out(DIAGNOSE_USAGE);
    return 0;
  }
  const text = await io.readText(args.right.reportPath);
  if (E.isLeft(text)) {
    io.err(`cannot read ${args.right.reportPath}: ${text.left}${missingReportHint(args.right.reportPath, text.left)}`);
    return 2;
  }
  const json = parseJsonText(text.right);
  if (E.isLeft(json)) {
    io.err(`${args.right.reportPath} is not valid JSON: ${formatJsonSyntaxError(json.left)}`);
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
