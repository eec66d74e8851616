/**
 * The parts of a harness report (`ScenarioReport`, read back from its JSON file) that the forms
 * diagnosis reads, decoded with io-ts: the file is untrusted input. Extra keys are ignored, so an
 * older or newer report still decodes as long as these parts are there.
 *
 * Every function here is pure: JSON in, a typed value or a `_tag`ged error out.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { evidenceIssues } from '@wework/elicitation-mapper';
import { ProxyLogEntry } from '../proxy/index.js';

const JsonObject = t.UnknownRecord;

/** One `wire` entry: a JSON-RPC message between the harness and the app-server. */
export const WireInput = t.type({ direction: t.keyof({ toAppServer: null, fromAppServer: null }), message: t.unknown }, 'WireInput');
/** One `cards` entry: a server request the client received and the answer it sent. */
export const CardInput = t.type({ method: t.string, params: t.unknown, response: t.unknown }, 'CardInput');
/** One `turns` entry: the items Codex completed in it. */
export const TurnInput = t.type({ items: t.array(t.unknown) }, 'TurnInput');

/** What the diagnosis reads from a report. */
export const ReportInput = t.type(
  {
    scenario: t.string,
    wire: t.array(WireInput),
    cards: t.array(CardInput),
    turns: t.array(TurnInput),
    plugins: t.record(t.string, t.array(ProxyLogEntry)),
    /** The effective config.toml (missing in reports of harness versions that did not record it). */
    config: t.union([JsonObject, t.null, t.undefined]),
    /** The effective thread/start params (same). */
    threadParams: t.union([JsonObject, t.null, t.undefined]),
  },
  'ReportInput',
);
/** What the diagnosis reads from a report. */
export type ReportInput = t.TypeOf<typeof ReportInput>;

/** A report file that cannot be diagnosed. */
export interface InvalidReport {
  readonly _tag: 'InvalidReport';
  /** One line per problem: `path: expected X`. */
  readonly issues: ReadonlyArray<string>;
}

/** Decodes a parsed report file. */
export function decodeReportInput(json: unknown): E.Either<InvalidReport, ReportInput> {
  const decoded = ReportInput.decode(json);
  if (E.isRight(decoded)) return decoded;
  return E.left({ _tag: 'InvalidReport', issues: evidenceIssues(decoded.left).slice(0, 10) });
}
