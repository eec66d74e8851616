/**
 * The neutral evidence {@link diagnoseForms} works from: what was in force (approval policy,
 * features, MCP server approval modes, capabilities) and what happened to each plugin form and
 * each MCP tool call. Any source can produce it: an executor's logs, a harness report, a test.
 *
 * The codecs decode evidence from untrusted JSON; `null` means "not known".
 * Every value here is plain data.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { codecs } from '@wework/codex-protocol';
import { expectedTypeName, isRecord, issuePath } from '@wework/decode-issues';

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** What came back for an elicitation: an action, or `none` (nothing came back). */
export const ElicitationAction = t.keyof({ accept: null, decline: null, cancel: null, none: null }, 'ElicitationAction');
/** What came back for an elicitation: an action, or `none` (nothing came back). */
export type ElicitationAction = t.TypeOf<typeof ElicitationAction>;

/** An MCP error (JSON-RPC error or an error the SDK raised locally, then `code` may be `null`). */
export const McpErrorEvidence = t.readonly(t.type({ code: nullable(t.number), message: t.string }), 'McpErrorEvidence');
/** An MCP error (JSON-RPC error or an error the SDK raised locally, then `code` may be `null`). */
export type McpErrorEvidence = t.TypeOf<typeof McpErrorEvidence>;

/** What happened to one form a plugin asked for. */
export const FormEvidence = t.readonly(
  t.type({
    /** The MCP server (plugin) that asked. */
    server: t.string,
    /** The tool call the form belongs to, when known. */
    tool: nullable(t.string),
    message: t.string,
    /** The elicitation mode the plugin asked with (`form`, `openai/form`, `url`...). */
    mode: t.string,
    /** The plugin's `elicitation/create` went out to Codex (`false`: the plugin's SDK refused before sending). */
    sent: t.boolean,
    /** `requestedSchema.properties` is an object. */
    hasProperties: t.boolean,
    /** The plugin asked while one of its tool calls (inside a turn) was running. */
    duringToolCall: nullable(t.boolean),
    /** An `mcpServer/elicitation/request` for this form reached the client. */
    reachedClient: t.boolean,
    /** The client could render the request (mode and schema), when it reached the client. */
    schemaSupported: nullable(t.boolean),
    /** What the client answered to `mcpServer/elicitation/request`. */
    clientAnswer: ElicitationAction,
    /** What the plugin received as its `ElicitResult`. */
    pluginResult: ElicitationAction,
    /** The MCP error the plugin saw instead of a result (or when validating the answer). */
    pluginError: nullable(McpErrorEvidence),
    /** The tool call completed after the form was settled. */
    toolContinued: nullable(t.boolean),
  }),
  'FormEvidence',
);
/** What happened to one form a plugin asked for. */
export type FormEvidence = t.TypeOf<typeof FormEvidence>;

/** How a tool-call approval ("Allow the <server> MCP server to run tool ...") reached the client, if it did. */
export const ApprovalCard = t.keyof({ none: null, elicitation: null, requestUserInput: null }, 'ApprovalCard');
/** How a tool-call approval reached the client, if it did. */
export type ApprovalCard = t.TypeOf<typeof ApprovalCard>;

/** What happened to one MCP tool call. */
export const ToolCallEvidence = t.readonly(
  t.type({
    server: t.string,
    tool: t.string,
    /** A tool-call approval card reached the client. */
    approvalCard: ApprovalCard,
    /** The plugin received the `tools/call`. */
    reachedPlugin: t.boolean,
    /** The call's error as Codex reported it. */
    error: nullable(t.string),
  }),
  'ToolCallEvidence',
);
/** What happened to one MCP tool call. */
export type ToolCallEvidence = t.TypeOf<typeof ToolCallEvidence>;

/** The approval modes configured for one MCP server (`default_tools_approval_mode`, `tools.<tool>.approval_mode`). */
export const ServerApprovalEvidence = t.readonly(
  t.type({ defaultToolsApprovalMode: nullable(t.string), tools: t.readonly(t.record(t.string, t.string)) }),
  'ServerApprovalEvidence',
);
/** The approval modes configured for one MCP server. */
export type ServerApprovalEvidence = t.TypeOf<typeof ServerApprovalEvidence>;

/** Everything {@link diagnoseForms} looks at. */
export const FormsEvidence = t.readonly(
  t.type({
    /** The approval policy in force for the thread/turn (one this version knows: an unknown one is no evidence). */
    approvalPolicy: nullable(codecs.AskForApprovalStrict),
    /** `[features] tool_call_mcp_elicitation`. */
    toolCallMcpElicitation: nullable(t.boolean),
    /** The MCP runtime's `elicitations_auto_deny`. */
    elicitationsAutoDeny: nullable(t.boolean),
    /** `initialize` advertised `openai/form`. */
    openaiFormAdvertised: nullable(t.boolean),
    mcpServers: t.readonly(t.record(t.string, ServerApprovalEvidence)),
    toolCalls: t.readonlyArray(ToolCallEvidence),
    forms: t.readonlyArray(FormEvidence),
  }),
  'FormsEvidence',
);
/** Everything {@link diagnoseForms} looks at. */
export type FormsEvidence = t.TypeOf<typeof FormsEvidence>;

/** Evidence JSON that does not decode. */
export interface InvalidFormsEvidence {
  readonly _tag: 'InvalidFormsEvidence';
  /** One line per problem: `path: expected X`. */
  readonly issues: ReadonlyArray<string>;
}

/**
 * Decodes evidence from untrusted JSON.
 *
 * @example
 * ```ts
 * decodeFormsEvidence(JSON.parse(text)); // Either<InvalidFormsEvidence, FormsEvidence>
 * ```
 */
export function decodeFormsEvidence(json: unknown): E.Either<InvalidFormsEvidence, FormsEvidence> {
  const decoded = FormsEvidence.decode(json);
  return E.isRight(decoded) ? decoded : E.left({ _tag: 'InvalidFormsEvidence', issues: evidenceIssues(decoded.left) });
}

/**
 * One line per distinct decode problem, `path: expected X` (a dotted path, `(root)` for the whole
 * value); values are never printed. Shared by every decoder of diagnosis input.
 *
 * @example
 * ```ts
 * const decoded = FormsEvidence.decode({ ...emptyFormsEvidence, forms: [{ sent: 1 }] });
 * if (E.isLeft(decoded)) evidenceIssues(decoded.left); // ['forms.0.server: expected string', ...]
 * ```
 */
export function evidenceIssues(errors: t.Errors): ReadonlyArray<string> {
  if (!Array.isArray(errors)) return [];
  const lines = errors.filter(isValidationError).map((error) => `${issuePath(error.context) || '(root)'}: expected ${expectedTypeName(error) ?? 'a value'}`);
  return [...new Set(lines)];
}

/** Whether `u` has the shape of an io-ts validation error (so that formatting it cannot throw). */
const isValidationError = (u: unknown): u is t.ValidationError =>
  isRecord(u) && Array.isArray(u['context']) && (u['context'] as ReadonlyArray<unknown>).every((entry) => isRecord(entry) && typeof entry['key'] === 'string' && isRecord(entry['type']));

/** Evidence where nothing is known and nothing happened; spread it and override what you know. */
export const emptyFormsEvidence: FormsEvidence = Object.freeze({
  approvalPolicy: null,
  toolCallMcpElicitation: null,
  elicitationsAutoDeny: null,
  openaiFormAdvertised: null,
  mcpServers: {},
  toolCalls: [],
  forms: [],
});
