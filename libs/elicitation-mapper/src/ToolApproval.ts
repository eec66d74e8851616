/**
 * Codex's MCP tool approvals. With `[features] tool_call_mcp_elicitation = true`, Codex asks
 * "may this MCP tool run?" as an `mcpServer/elicitation/request` with an empty schema and
 * `_meta: { codex_approval_kind: "mcp_tool_call", persist?, tool_name, tool_params, ... }`.
 * Such a request becomes a {@link ToolApprovalCard} (allow once / for this session / always,
 * as far as `persist` offers them, and decline), not an empty business form.
 *
 * What Codex 0.171.0 expects back (read in codex-rs and checked against the binary):
 * accept with `_meta: { persist: "session" }` → allowed and remembered for the session;
 * accept with `_meta: { persist: "always" }` → allowed, and `[mcp_servers.<server>.tools.<tool>]
 * approval_mode = "approve"` is written to config.toml; accept without `persist` → allowed once;
 * decline → "user rejected MCP tool call"; cancel → "user cancelled MCP tool call".
 *
 * Every function here is pure: values in, values out.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { ApprovalChoice, ApprovalQuestion, ToolApprovalCard, ToolParamDisplay } from './Card.js';
import type { ElicitationRequest } from './ElicitationRequest.js';
import { acceptResult, cancelResult, declineResult, type ElicitResult } from './ElicitResult.js';
import { isRecord } from '@wework/decode-issues';
import { isEmptyRecord, own, stringOrNull, type JsonRecord } from './internal/json.js';
import { unsupportedApprovalKind, type Unsupported } from './Unsupported.js';

/** `_meta.codex_approval_kind` of an MCP tool approval. */
export const MCP_TOOL_CALL_APPROVAL_KIND = 'mcp_tool_call';

/** The id of the single question of a {@link ToolApprovalCard}. */
export const TOOL_APPROVAL_QUESTION_ID = 'approval';

/** Label and description shown for each choice. */
export const approvalChoiceLabels: { readonly [C in ApprovalChoice]: { readonly label: string; readonly description: string } } = {
  allowOnce: { label: 'Allow once', description: 'Run the tool this time.' },
  allowForSession: { label: 'Allow for this session', description: 'Run the tool and do not ask again in this session.' },
  allowAlways: { label: 'Always allow', description: 'Run the tool and do not ask again (saved in the Codex config).' },
  decline: { label: 'Decline', description: 'Do not run the tool.' },
};

/** The Codex approval kind of a request, or `null` for a business form. */
const approvalKind = (request: ElicitationRequest): string | null => {
  const meta = request.meta;
  if (!isRecord(meta)) return null;
  const kind = own(meta, 'codex_approval_kind');
  if (typeof kind !== 'string') return null;
  // Codex's approvals carry no fields. A form with fields is a plugin's business form whatever its
  // `_meta` says, so a plugin cannot dress its form up as a Codex approval.
  const schema = request.requestedSchema;
  if (!isRecord(schema)) return null;
  const properties = own(schema, 'properties');
  return properties === undefined || (isRecord(properties) && isEmptyRecord(properties)) ? kind : null;
};

/** The persistence `_meta.persist` offers: a string or an array of strings; unknown values are ignored. */
const offeredPersistence = (meta: JsonRecord): Array<ApprovalChoice> => {
  const persist = own(meta, 'persist');
  const offered = typeof persist === 'string' ? [persist] : Array.isArray(persist) ? (persist as ReadonlyArray<unknown>) : [];
  const choices: Array<ApprovalChoice> = [];
  if (offered.includes('session')) choices.push('allowForSession');
  if (offered.includes('always')) choices.push('allowAlways');
  return choices;
};

const paramsDisplay = (value: unknown): Array<ToolParamDisplay> | null => {
  if (!Array.isArray(value)) return null;
  const out: Array<ToolParamDisplay> = [];
  for (const item of value as ReadonlyArray<unknown>) {
    if (!isRecord(item) || typeof item['name'] !== 'string') continue;
    const displayName = own(item, 'display_name');
    out.push({ name: item['name'], displayName: typeof displayName === 'string' ? displayName : item['name'], value: own(item, 'value') ?? null });
  }
  return out;
};

const approvalCard = (request: ElicitationRequest, meta: JsonRecord): ToolApprovalCard => {
  const choices: Array<ApprovalChoice> = ['allowOnce', ...offeredPersistence(meta), 'decline'];
  const question: ApprovalQuestion = {
    id: TOOL_APPROVAL_QUESTION_ID,
    header: 'Approve tool call?',
    question: request.message,
    isOther: false,
    isSecret: false,
    required: true,
    answerType: 'approval',
    options: choices.map((choice) => ({ label: approvalChoiceLabels[choice].label, description: approvalChoiceLabels[choice].description })),
    choices,
    defaultIndex: 0,
  };
  return {
    _tag: 'ToolApprovalCard',
    source: request.source,
    message: request.message,
    tool: {
      name: stringOrNull(own(meta, 'tool_name')),
      title: stringOrNull(own(meta, 'tool_title')),
      description: stringOrNull(own(meta, 'tool_description')),
      params: own(meta, 'tool_params') ?? null,
      paramsDisplay: paramsDisplay(own(meta, 'tool_params_display')),
    },
    choices,
    questions: [question],
    submitOnSelect: true,
  };
};

/**
 * The approval card of a Codex approval request: `None` for a business form, `Some(Right(card))`
 * for an MCP tool approval, `Some(Left(UnsupportedApprovalKind))` for other Codex approval kinds.
 */
export function toolApprovalCard(request: ElicitationRequest): O.Option<E.Either<Unsupported, ToolApprovalCard>> {
  if (!isRecord(request)) return O.none;
  const kind = approvalKind(request);
  if (kind === null) return O.none;
  if (kind !== MCP_TOOL_CALL_APPROVAL_KIND) return O.some(E.left(unsupportedApprovalKind(kind)));
  return O.some(E.right(approvalCard(request, request.meta as JsonRecord)));
}

/**
 * The response Codex expects for a choice. A choice the card does not offer reads as no usable
 * answer (cancel), so a host cannot grant more than the request offered.
 * @example
 * ```ts
 * approvalResult(card, 'allowForSession'); // { action: 'accept', content: {}, _meta: { persist: 'session' } }
 * approvalResult(card, 'decline');         // { action: 'decline', content: null, _meta: null }
 * ```
 */
export function approvalResult(card: ToolApprovalCard, choice: ApprovalChoice): ElicitResult {
  const offered: unknown = isRecord(card) ? card.choices : undefined;
  if (!Array.isArray(offered) || !offered.includes(choice)) return cancelResult();
  switch (choice) {
    case 'allowOnce':
      return acceptResult({});
    case 'allowForSession':
      return acceptResult({}, { persist: 'session' });
    case 'allowAlways':
      return acceptResult({}, { persist: 'always' });
    case 'decline':
      return declineResult();
    default:
      return cancelResult();
  }
}
