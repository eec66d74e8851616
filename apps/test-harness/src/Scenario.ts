/**
 * The scenario file: which plugins to run, what the scripted model does, which config overrides the
 * app-server gets, the turns to run and how the scripted user answers cards. Plain JSON, decoded
 * strictly with io-ts so that a typo is an error with a path rather than a silently ignored key.
 *
 * Every function here is pure: JSON in, a `Scenario` or a typed error out.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { describeIssue, describeKind, formatJsonSyntaxError, isRecord, listIssues, parseJsonText, strictRecord, type DecodeIssue } from '@wework/decode-issues';
import { decodeScript, type Script } from '@wework/scripted-model';

const JsonObject = t.UnknownRecord;
const StringMap = t.record(t.string, t.string);

/** How Codex asks before running a plugin's tools (`[mcp_servers.<name>] default_tools_approval_mode`). */
export const ToolsApproval = t.keyof({ approve: null, prompt: null, auto: null });
export type ToolsApproval = t.TypeOf<typeof ToolsApproval>;

const PluginBase = { name: t.string };
const PluginOptional = { env: StringMap, cwd: t.string, toolsApproval: ToolsApproval, record: t.boolean };

/** A plugin: any MCP server started by command line, or one of the bundled samples. */
export const PluginSpec = t.union([
  strictRecord('CommandPlugin', { ...PluginBase, command: t.string }, { ...PluginOptional, args: t.array(t.string) }),
  strictRecord('SamplePlugin', { ...PluginBase, sample: t.literal('forms') }, PluginOptional),
]);
export type PluginSpec = t.TypeOf<typeof PluginSpec>;

/** A card answer for `mcpServer/elicitation/request` and `item/tool/requestUserInput`, or an approval decision. */
export const AnswerSpec = strictRecord(
  'Answer',
  {},
  {
    /** Only answer requests of this method (default: any card). */
    method: t.string,
    /** Only answer requests from this MCP server (elicitations). */
    serverName: t.string,
    /** Elicitation action; `accept` sends `content` (or the values of `answers`). */
    action: t.keyof({ accept: null, decline: null, cancel: null }),
    content: JsonObject,
    /** Values by question id (form property key, or requestUserInput question id). */
    answers: JsonObject,
    /** Decision for approval requests: a protocol value such as "accept", "decline", "cancel", or an object. */
    decision: t.union([t.string, JsonObject]),
    /** The full response to send, verbatim, for requests not covered above. */
    respond: JsonObject,
  },
);
export type AnswerSpec = t.TypeOf<typeof AnswerSpec>;

/** What the scripted user does with a card no ordered answer or question id covers. */
export const Otherwise = t.keyof({ cancel: null, decline: null, fail: null });
export type Otherwise = t.TypeOf<typeof Otherwise>;

export const UserSpec = strictRecord('User', {}, { answers: t.array(AnswerSpec), byQuestionId: JsonObject, otherwise: Otherwise });
export type UserSpec = t.TypeOf<typeof UserSpec>;

/** One user turn. */
export const TurnSpec = strictRecord(
  'Turn',
  { input: t.string },
  { expectStatus: t.keyof({ completed: null, interrupted: null, failed: null }), interruptAfterMs: t.number, timeoutMs: t.number },
);
export type TurnSpec = t.TypeOf<typeof TurnSpec>;

export const ModelSpec = strictRecord('Model', { script: t.unknown }, { slug: t.string });

/** Checks run against the report after the scenario; a failed check fails the run. */
export const ExpectSpec = strictRecord(
  'Expect',
  {},
  {
    /** Every assistant message of the last turn, joined, contains each of these strings. */
    finalMessageContains: t.array(t.string),
    /** Methods of server requests that must have reached the client, in this order (a subsequence). */
    serverRequests: t.array(t.string),
    /** Tools the model must have been offered (`namespace.tool` or plain name). */
    toolsOffered: t.array(t.string),
    /** Each string must appear in some tool output the model received. */
    toolOutputContains: t.array(t.string),
    /** Per plugin name: methods the plugin must have received from Codex (requests/notifications/results). */
    pluginReceived: t.record(t.string, t.array(t.string)),
  },
);
export type ExpectSpec = t.TypeOf<typeof ExpectSpec>;

export const ScenarioCodec = strictRecord(
  'Scenario',
  { name: t.string, model: ModelSpec, turns: t.array(TurnSpec) },
  {
    description: t.string,
    plugins: t.array(PluginSpec),
    /** Merged into the generated config.toml (deep merge, scenario wins). */
    config: JsonObject,
    /** Merged into the `thread/start` params. */
    thread: JsonObject,
    user: UserSpec,
    expect: ExpectSpec,
    /** Extra environment for the app-server. */
    env: StringMap,
    $schema: t.string,
  },
);

/** A decoded scenario, with its model script decoded too. */
export interface Scenario extends Omit<t.TypeOf<typeof ScenarioCodec>, 'model'> {
  readonly model: { readonly slug?: string; readonly script: Script };
}

/** Why a scenario file was refused: not JSON (where), or every problem of its content at once. */
export type ScenarioError =
  | { readonly _tag: 'ScenarioJsonSyntaxError'; readonly line: number; readonly column: number; readonly expected: string }
  | { readonly _tag: 'ScenarioInvalid'; readonly issues: ReadonlyArray<DecodeIssue> };

/** Plugins named like an earlier one, located by the later one's path. */
function duplicatePlugins(plugins: unknown): ReadonlyArray<DecodeIssue> {
  if (!Array.isArray(plugins)) return [];
  const first = new Map<unknown, number>();
  const issues: DecodeIssue[] = [];
  plugins.forEach((plugin: unknown, index) => {
    if (!isRecord(plugin) || typeof plugin['name'] !== 'string') return;
    const earlier = first.get(plugin['name']);
    if (earlier === undefined) first.set(plugin['name'], index);
    else {
      issues.push({
        path: `plugins.${index}.name`,
        expected: 'a name no earlier plugin has',
        actual: describeKind(plugin['name']),
        message: `the same name as plugins.${earlier}; plugin names must be unique`,
      });
    }
  });
  return issues;
}

/** Decodes already-parsed JSON into a scenario; a refusal lists every problem found, not only the first. */
export function decodeScenario(json: unknown): E.Either<ScenarioError, Scenario> {
  const decoded = ScenarioCodec.decode(json);
  const model = isRecord(json) && isRecord(json['model']) ? json['model'] : undefined;
  const script = model !== undefined && 'script' in model ? decodeScript(model['script']) : undefined;
  const issues = [
    // Keys under a union name the member tried, not a place in the document: left out.
    ...(E.isLeft(decoded) ? listIssues(decoded.left, { members: 'skipUnions' }).map((issue) => (issue.path === '' ? { ...issue, path: '(root)' } : issue)) : []),
    ...(script !== undefined && E.isLeft(script) ? script.left.issues.map((issue) => ({ ...issue, path: `model.${issue.path}` })) : []),
    ...duplicatePlugins(isRecord(json) ? json['plugins'] : undefined),
  ];
  if (issues.length > 0 || E.isLeft(decoded) || script === undefined || E.isLeft(script)) return E.left({ _tag: 'ScenarioInvalid', issues });
  const raw = decoded.right;
  return E.right({ ...raw, model: { ...(raw.model.slug === undefined ? {} : { slug: raw.model.slug }), script: script.right } });
}

/** Parses scenario JSON text; text that is not JSON is refused with the line and column of its first problem. */
export function parseScenario(text: string): E.Either<ScenarioError, Scenario> {
  return pipe(
    parseJsonText(text),
    E.mapLeft((error): ScenarioError => ({ _tag: 'ScenarioJsonSyntaxError', line: error.line, column: error.column, expected: error.expected })),
    E.chain(decodeScenario),
  );
}

/** A message a person can act on. */
export function formatScenarioError(error: ScenarioError): string {
  switch (error._tag) {
    case 'ScenarioJsonSyntaxError':
      return `the scenario is not valid JSON: ${formatJsonSyntaxError({ ...error, _tag: 'JsonSyntaxError' })}`;
    case 'ScenarioInvalid':
      return `the scenario does not match the format (see docs/harness.md):\n${error.issues.map((i) => `  - ${i.path}: ${describeIssue(i)}`).join('\n')}`;
  }
}
