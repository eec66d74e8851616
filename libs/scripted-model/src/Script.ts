/**
 * The script of a scripted model: one {@link ModelResponse} per request, consumed in order.
 * A script is plain JSON (it is embedded in scenario files) and is decoded here with io-ts;
 * decoding is strict, so a typo such as `{"sya": "hi"}` is an error with a path, never ignored.
 *
 * JSON forms:
 * ```json
 * [
 *   { "steps": [{ "reasoning": "Think first" }, { "say": "Hello" }] },
 *   { "steps": [{ "callTool": { "server": "forms", "tool": "echo", "arguments": { "text": "hi" } } }] },
 *   { "steps": [{ "callFunction": { "name": "exec_command", "arguments": { "cmd": "ls" } } }] },
 *   { "steps": [{ "shell": { "cmd": "touch x", "sandboxPermissions": "require_escalated", "justification": "why" } }] },
 *   { "steps": [{ "applyPatch": { "patch": "*** Begin Patch\n...\n*** End Patch\n" } }] },
 *   { "fail": { "status": 500, "message": "model unavailable" } },
 *   { "hang": true }
 * ]
 * ```
 *
 * Every function here is pure: plain data in, plain data or an `Either` out.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { describeIssue, describeKind, formatJsonSyntaxError, isRecord, parseJsonText, strictRecord, type DecodeIssue } from '@wework/decode-issues';
import { JsonObject, boundedInt, toIssues } from './internal/Codecs.js';

/** Arguments of a tool or function call: a JSON object, sent to Codex as a JSON string. */
export type ToolArguments = Readonly<Record<string, unknown>>;

/** The model says `text` as an assistant message. */
export interface SayStep {
  readonly kind: 'say';
  readonly text: string;
}

/** The model emits a reasoning item whose summary is `summary`. */
export interface ReasoningStep {
  readonly kind: 'reasoning';
  readonly summary: string;
}

/** The model calls tool `tool` of MCP server `server` (Codex offers it in namespace `mcp__<server>`). */
export interface CallToolStep {
  readonly kind: 'callTool';
  readonly server: string;
  readonly tool: string;
  readonly arguments: ToolArguments;
  readonly callId?: string;
}

/** The model calls a plain function tool (e.g. `exec_command`), optionally inside a namespace. */
export interface CallFunctionStep {
  readonly kind: 'callFunction';
  readonly name: string;
  readonly arguments: ToolArguments;
  readonly namespace?: string;
  readonly callId?: string;
}

/** Sandbox permission a shell call asks for. */
export type SandboxPermissions = 'use_default' | 'require_escalated';

/** Sugar for an `exec_command` call. */
export interface ShellStep {
  readonly kind: 'shell';
  readonly cmd: string;
  readonly sandboxPermissions?: SandboxPermissions;
  readonly justification?: string;
  readonly workdir?: string;
  readonly callId?: string;
}

/** The model calls the freeform `apply_patch` tool (a `custom_tool_call`). */
export interface ApplyPatchStep {
  readonly kind: 'applyPatch';
  readonly patch: string;
  readonly callId?: string;
}

/** One output item of a model response. */
export type Step = SayStep | ReasoningStep | CallToolStep | CallFunctionStep | ShellStep | ApplyPatchStep;

/** A successful streamed response made of output steps, in order. */
export interface StepsResponse {
  readonly kind: 'steps';
  readonly steps: ReadonlyArray<Step>;
}

/** The request fails with an HTTP error status and an OpenAI-style error body. */
export interface FailResponse {
  readonly kind: 'fail';
  readonly status: number;
  readonly message: string;
}

/** The stream opens (`response.created`) and never finishes: for interruption tests. */
export interface HangResponse {
  readonly kind: 'hang';
}

/** What the model does for one request. */
export type ModelResponse = StepsResponse | FailResponse | HangResponse;

/** The whole script: responses consumed one per request, in order. */
export type Script = ReadonlyArray<ModelResponse>;

/** The script's text is not JSON: where its first problem is (1-based line and column) and what was expected there, never a quote of the text. */
export interface ScriptJsonSyntaxError {
  readonly _tag: 'ScriptJsonSyntaxError';
  readonly line: number;
  readonly column: number;
  readonly expected: string;
}

/** The script's JSON did not match the script format. */
export interface ScriptDecodeError {
  readonly _tag: 'ScriptDecodeError';
  readonly issues: ReadonlyArray<DecodeIssue>;
}

/** Why a script could not be read. */
export type ScriptError = ScriptJsonSyntaxError | ScriptDecodeError;

const callIdProp = { callId: t.string };

const stepBodies = {
  say: t.string,
  reasoning: t.string,
  callTool: strictRecord('CallTool', { server: t.string, tool: t.string }, { arguments: JsonObject, ...callIdProp }),
  callFunction: strictRecord('CallFunction', { name: t.string }, { arguments: JsonObject, namespace: t.string, ...callIdProp }),
  shell: strictRecord(
    'Shell',
    { cmd: t.string },
    {
      sandboxPermissions: t.keyof({ use_default: null, require_escalated: null }),
      justification: t.string,
      workdir: t.string,
      ...callIdProp,
    },
  ),
  applyPatch: strictRecord('ApplyPatch', { patch: t.string }, callIdProp),
} as const;

type StepKind = keyof typeof stepBodies;
const stepKinds = Object.keys(stepBodies) as ReadonlyArray<StepKind>;

function stepFromBody(kind: StepKind, body: unknown): Step {
  switch (kind) {
    case 'say':
      return { kind, text: body as string };
    case 'reasoning':
      return { kind, summary: body as string };
    case 'callTool': {
      const b = body as t.TypeOf<typeof stepBodies.callTool>;
      return { kind, ...b, arguments: b.arguments ?? {} };
    }
    case 'callFunction': {
      const b = body as t.TypeOf<typeof stepBodies.callFunction>;
      return { kind, ...b, arguments: b.arguments ?? {} };
    }
    case 'shell':
      return { kind, ...(body as t.TypeOf<typeof stepBodies.shell>) };
    case 'applyPatch':
      return { kind, ...(body as t.TypeOf<typeof stepBodies.applyPatch>) };
  }
}

/** The JSON form of a step, e.g. `{ "say": "hi" }`. */
export type StepJson = { readonly [K in StepKind]?: t.OutputOf<(typeof stepBodies)[K]> };

function stepToJson(step: Step): StepJson {
  const { kind, ...rest } = step;
  switch (step.kind) {
    case 'say':
      return { say: step.text };
    case 'reasoning':
      return { reasoning: step.summary };
    default:
      return { [kind]: rest } as StepJson;
  }
}

/** Decodes one step from its single-key JSON form. */
export const StepCodec = new t.Type<Step, StepJson, unknown>(
  'Step',
  (u): u is Step => isRecord(u) && typeof u['kind'] === 'string' && stepKinds.includes(u['kind'] as StepKind),
  (u, c) => {
    if (!isRecord(u)) return t.failure(u, c, `expected a step object such as {"say": "..."}, got ${describeKind(u)}`);
    const keys = Object.keys(u);
    const [kind] = keys;
    if (keys.length !== 1 || kind === undefined) {
      return t.failure(u, c, `a step has exactly one key, one of ${stepKinds.join(', ')}; got ${keys.length === 0 ? 'none' : keys.join(', ')}`);
    }
    if (!stepKinds.includes(kind as StepKind)) {
      return t.failure(u, c, `unknown step "${kind}" (expected one of ${stepKinds.join(', ')})`);
    }
    const codec: t.Mixed = stepBodies[kind as StepKind];
    return pipe(
      codec.validate(u[kind], t.appendContext(c, kind, codec, u[kind])),
      E.map((body) => stepFromBody(kind as StepKind, body)),
    );
  },
  stepToJson,
);

const responseBodies = {
  steps: t.array(StepCodec),
  fail: strictRecord('Fail', { status: boundedInt('HttpErrorStatus', 400, 599), message: t.string }, {}),
  hang: t.literal(true),
} as const;

type ResponseKind = keyof typeof responseBodies;
const responseKinds = Object.keys(responseBodies) as ReadonlyArray<ResponseKind>;

/** The JSON form of a response: `{ "steps": [...] }`, `{ "fail": {...} }` or `{ "hang": true }`. */
export type ModelResponseJson =
  | { readonly steps: ReadonlyArray<StepJson> }
  | { readonly fail: { readonly status: number; readonly message: string } }
  | { readonly hang: true };

/** Decodes one model response from its single-key JSON form. */
export const ModelResponseCodec = new t.Type<ModelResponse, ModelResponseJson, unknown>(
  'ModelResponse',
  (u): u is ModelResponse => isRecord(u) && typeof u['kind'] === 'string' && responseKinds.includes(u['kind'] as ResponseKind),
  (u, c) => {
    if (!isRecord(u)) return t.failure(u, c, `expected a response object such as {"steps": [...]}, got ${describeKind(u)}`);
    const keys = Object.keys(u);
    const [kind] = keys;
    if (keys.length !== 1 || kind === undefined || !responseKinds.includes(kind as ResponseKind)) {
      return t.failure(u, c, `a response has exactly one key, one of ${responseKinds.join(', ')}; got ${keys.length === 0 ? 'none' : keys.join(', ')}`);
    }
    const codec: t.Mixed = responseBodies[kind as ResponseKind];
    return pipe(
      codec.validate(u[kind], t.appendContext(c, kind, codec, u[kind])),
      E.map((body): ModelResponse => {
        if (kind === 'steps') return { kind: 'steps', steps: body as ReadonlyArray<Step> };
        if (kind === 'fail') {
          const b = body as { status: number; message: string };
          return { kind: 'fail', status: b.status, message: b.message };
        }
        return { kind: 'hang' };
      }),
    );
  },
  (r): ModelResponseJson => {
    switch (r.kind) {
      case 'steps':
        return { steps: r.steps.map(stepToJson) };
      case 'fail':
        return { fail: { status: r.status, message: r.message } };
      case 'hang':
        return { hang: true };
    }
  },
);

/** Decodes a whole script (a JSON array of responses). */
export const ScriptCodec: t.Type<Script, ReadonlyArray<ModelResponseJson>, unknown> = t.readonlyArray(ModelResponseCodec, 'Script');

/**
 * Decodes a script from already-parsed JSON.
 *
 * @example
 * ```ts
 * import { decodeScript } from '@wework/scripted-model';
 * const script = decodeScript([{ steps: [{ say: 'Hello' }] }]);
 * // script: Right([{ kind: 'steps', steps: [{ kind: 'say', text: 'Hello' }] }])
 * ```
 */
export function decodeScript(json: unknown): E.Either<ScriptDecodeError, Script> {
  return pipe(
    ScriptCodec.decode(json),
    E.mapLeft((errors): ScriptDecodeError => ({ _tag: 'ScriptDecodeError', issues: toIssues('script', errors) })),
  );
}

/**
 * Parses and decodes a script from JSON text. Text that is not JSON is refused with the line and
 * column of its first problem; neither error quotes the text.
 *
 * @example
 * ```ts
 * parseScript('[{"steps": [{"say": "hi"}]}]'); // Right([{ kind: 'steps', steps: [{ kind: 'say', text: 'hi' }] }])
 * parseScript('[{"steps": [}]'); // Left({ _tag: 'ScriptJsonSyntaxError', line: 1, column: 13, expected: ... })
 * ```
 */
export function parseScript(text: string): E.Either<ScriptError, Script> {
  return pipe(
    parseJsonText(text),
    E.mapLeft((error): ScriptError => ({ _tag: 'ScriptJsonSyntaxError', line: error.line, column: error.column, expected: error.expected })),
    E.chainW(decodeScript),
  );
}

/** Encodes a script back to its JSON form (the inverse of {@link decodeScript}). */
export function encodeScript(script: Script): ReadonlyArray<ModelResponseJson> {
  return ScriptCodec.encode(script);
}

/** Renders a script error as one line per issue. */
export function formatScriptError(error: ScriptError): string {
  switch (error._tag) {
    case 'ScriptJsonSyntaxError':
      return `script is not valid JSON: ${formatJsonSyntaxError({ ...error, _tag: 'JsonSyntaxError' })}`;
    case 'ScriptDecodeError':
      return error.issues.map((issue) => `${issue.path}: ${describeIssue(issue)}`).join('\n');
  }
}
