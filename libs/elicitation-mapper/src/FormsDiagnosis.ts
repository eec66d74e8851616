/**
 * Diagnosis of plugin forms that did not work, from neutral {@link FormsEvidence}: the rows of the
 * interactive forms spec's "Use the error location to debug" table that match, each with what it
 * means and the action to take, plus a few causes measured on the real Codex (a schema Codex
 * rejects, a tool call blocked by `"never"`, a tool approval wrapped as a form, a timeout).
 *
 * Every function here is pure: evidence in, findings out. Nothing throws.
 */
import type { AskForApproval } from '@wework/codex-protocol';
import { formatKeyPath } from '@wework/config-toml';
import { describeApprovalPolicy, isGranularPolicy, weworkGranularApprovalPolicy, type GranularApprovalPolicy } from './ElicitationForwarding.js';
import { FormsEvidence as FormsEvidenceCodec, type FormEvidence, type FormsEvidence, type ToolCallEvidence } from './FormsEvidence.js';
import { isRecord } from '@wework/decode-issues';
import { own } from './internal/json.js';

/** What every finding says: the symptom (a spec table row where there is one), its meaning, the action. */
export interface FindingText {
  readonly symptom: string;
  readonly meaning: string;
  readonly action: string;
  /** Where it was seen: `server.tool` or `server`, in order of appearance. */
  readonly where: ReadonlyArray<string>;
}

/** An approval setting that makes a tool call ask, and the config key that controls it. */
export interface ApprovalSetting {
  readonly server: string;
  readonly tool: string;
  /** The mode in force (`null`: not configured, Codex's default `auto`, which asks). */
  readonly mode: string | null;
  /** `prompt`/`writes` declared on purpose: keep it if the tool really needs per-call approval. */
  readonly explicit: boolean;
  /** The TOML key to set, e.g. `mcp_servers.forms.default_tools_approval_mode`. */
  readonly keyPath: string;
}

/** Why a form that reached the user did not let the plugin continue. */
export type ResultProblem = 'AnswerNeverReachedPlugin' | 'AnswerRejectedByPlugin' | 'PluginStoppedAfterResult';

/** One diagnosis. */
export type FormsFinding =
  | (FindingText & { readonly _tag: 'OpenaiFormUnsupported' })
  | (FindingText & { readonly _tag: 'ElicitationsAutoDeny' })
  | (FindingText & { readonly _tag: 'PolicyNeverAutoDeclined'; readonly approvalPolicy: 'never' })
  | (FindingText & { readonly _tag: 'GranularElicitationsOff'; readonly approvalPolicy: GranularApprovalPolicy })
  | (FindingText & { readonly _tag: 'NoActiveTurn' })
  | (FindingText & { readonly _tag: 'DeclinedBeforeClient' })
  | (FindingText & { readonly _tag: 'SchemaRejectedByCodex' })
  | (FindingText & { readonly _tag: 'SchemaUnsupported'; readonly modes: ReadonlyArray<string> })
  | (FindingText & { readonly _tag: 'ToolApprovalStillPrompt'; readonly settings: ReadonlyArray<ApprovalSetting> })
  | (FindingText & { readonly _tag: 'ToolApprovalWrappedAsForm' })
  | (FindingText & { readonly _tag: 'ToolCallBlockedByNever' })
  | (FindingText & { readonly _tag: 'ElicitationTimedOut' })
  | (FindingText & { readonly _tag: 'ResultNotHandled'; readonly problems: ReadonlyArray<ResultProblem> })
  | (FindingText & { readonly _tag: 'OpenaiFormAdvertised' });

/** The `_tag` of a finding. */
export type FormsFindingTag = FormsFinding['_tag'];

/** The order findings are reported in: the spec table's rows first, then the measured extras. */
export const FINDING_ORDER: ReadonlyArray<FormsFindingTag> = Object.freeze([
  'OpenaiFormUnsupported',
  'ElicitationsAutoDeny',
  'PolicyNeverAutoDeclined',
  'GranularElicitationsOff',
  'NoActiveTurn',
  'DeclinedBeforeClient',
  'SchemaRejectedByCodex',
  'SchemaUnsupported',
  'ToolApprovalStillPrompt',
  'ToolApprovalWrappedAsForm',
  'ToolCallBlockedByNever',
  'ElicitationTimedOut',
  'ResultNotHandled',
  'OpenaiFormAdvertised',
] as const);

const SYMPTOM = {
  openaiForm: 'The MCP client does not support openai/form requests.',
  declined: 'Plugin receives action: "decline", but logs do not contain mcpServer/elicitation/request',
  noForm: 'No form appears, but logs contain mcpServer/elicitation/request',
  allowCard: 'Every MCP tool call shows an "Allow this MCP tool call" form',
  noContinue: 'The form appears but the plugin does not continue after submit',
} as const;

const DECLINED_MEANING = 'Codex MCP runtime rejected the request before Wework UI';
const GRANULAR = JSON.stringify(weworkGranularApprovalPolicy);

const whereOf = (server: string, tool: string | null): string => (tool === null ? server : `${server}.${tool}`);
const matches = (error: { readonly message: string } | null, pattern: RegExp): boolean => error !== null && pattern.test(error.message);

/** A finding collected from one form or tool call; merged by tag afterwards. */
type Collected = { readonly finding: FormsFinding };

function declinedCauses(evidence: FormsEvidence, form: FormEvidence, where: string): ReadonlyArray<FormsFinding> {
  const policy: AskForApproval | null = evidence.approvalPolicy;
  const found: FormsFinding[] = [];
  const at = [where];
  if (evidence.elicitationsAutoDeny === true) {
    found.push({ _tag: 'ElicitationsAutoDeny', symptom: SYMPTOM.declined, meaning: `${DECLINED_MEANING}: the MCP runtime has elicitations_auto_deny enabled`, action: 'Disable elicitations_auto_deny for the runtime that serves Wework.', where: at });
  }
  if (policy === 'never') {
    found.push({
      _tag: 'PolicyNeverAutoDeclined',
      approvalPolicy: 'never',
      symptom: SYMPTOM.declined,
      meaning: `${DECLINED_MEANING}: the thread/turn uses approvalPolicy "never", under which Codex declines every MCP elicitation itself`,
      action: `Use the granular approval policy that only enables MCP elicitations, ${GRANULAR}, on thread/start, thread/resume, thread/fork and turn/start instead of approvalPolicy "never"; keep default_tools_approval_mode = "approve" on servers whose tool calls should not ask.`,
      where: at,
    });
  }
  if (policy !== null && isGranularPolicy(policy) && !policy.granular.mcp_elicitations) {
    found.push({
      _tag: 'GranularElicitationsOff',
      approvalPolicy: policy,
      symptom: SYMPTOM.declined,
      meaning: `${DECLINED_MEANING}: the thread/turn uses granular approval with mcp_elicitations: false (${describeApprovalPolicy(policy)})`,
      action: 'Set approvalPolicy.granular.mcp_elicitations to true; leave sandbox_approval, rules, skill_approval and request_permissions as they are.',
      where: at,
    });
  }
  if (form.duringToolCall === false) {
    found.push({ _tag: 'NoActiveTurn', symptom: SYMPTOM.declined, meaning: `${DECLINED_MEANING}: the plugin asked while none of its tool calls was running, so there was no active turn to forward the form to`, action: 'Ask only while handling a tools/call that Codex made inside a turn.', where: at });
  }
  if (found.length > 0) return found;
  return [
    {
      _tag: 'DeclinedBeforeClient',
      symptom: SYMPTOM.declined,
      meaning: `${DECLINED_MEANING}; the evidence does not show which gate`,
      action: 'Check elicitations_auto_deny, approvalPolicy, granular mcp_elicitations, and active-turn routing.',
      where: at,
    },
  ];
}

function formFindings(evidence: FormsEvidence, form: FormEvidence): ReadonlyArray<FormsFinding> {
  const where = whereOf(form.server, form.tool);
  const at = [where];
  const found: FormsFinding[] = [];
  if (matches(form.pluginError, /does not support openai\/form/i) || (form.mode === 'openai/form' && !form.sent)) {
    found.push({ _tag: 'OpenaiFormUnsupported', symptom: SYMPTOM.openaiForm, meaning: 'The Codex MCP client connected to the plugin does not support openai/form; the request did not reach Wework', action: 'Switch to mode: "form", or fall back to normal chat/tool parameters.', where: at });
  }
  if (form.pluginError !== null && (form.pluginError.code === -32001 || /timed? ?out/i.test(form.pluginError.message))) {
    found.push({ _tag: 'ElicitationTimedOut', symptom: 'The plugin\'s form timed out (MCP error -32001) without an answer', meaning: form.reachedClient ? 'The form reached the client but no answer came back in time' : 'The form never reached the client and nothing answered it', action: 'Make sure the card is rendered and its answer is sent back for the same server request id; raise the plugin\'s elicitation timeout if users need longer.', where: at });
  }
  if (form.sent && !form.reachedClient) {
    if (form.pluginError !== null && form.pluginError.code === -32602 && (!form.hasProperties || /ElicitRequestParamsWire/.test(form.pluginError.message))) {
      found.push({
        _tag: 'SchemaRejectedByCodex',
        symptom: 'Plugin receives MCP error -32602 "data did not match any variant of untagged enum ElicitRequestParamsWire", and logs do not contain mcpServer/elicitation/request',
        meaning: 'Codex could not read the requested schema (no properties, or a property that is not a primitive) and answered the plugin itself',
        action: 'Send requestedSchema as { type: "object", properties: {...} } with string, number, integer, boolean, string-enum/oneOf or array-of-string-enum properties.',
        where: at,
      });
    } else if (form.pluginResult === 'decline') {
      found.push(...declinedCauses(evidence, form, where));
    }
  }
  if (form.reachedClient && form.schemaSupported === false) {
    found.push({
      _tag: 'SchemaUnsupported',
      modes: [form.mode],
      symptom: SYMPTOM.noForm,
      meaning: `The request reached the runtime, but its mode (${form.mode}) or schema cannot be mapped to a form`,
      action: 'Check mode and requestedSchema.properties: use mode "form", string enum/oneOf values, and primitive property types.',
      where: at,
    });
  }
  if (form.reachedClient && form.clientAnswer !== 'none') {
    const problem: ResultProblem | undefined =
      form.pluginResult === 'none' && form.pluginError === null
        ? 'AnswerNeverReachedPlugin'
        : form.clientAnswer === 'accept' && form.pluginError !== null && form.pluginError.code === -32602
          ? 'AnswerRejectedByPlugin'
          : form.pluginResult !== 'none' && form.toolContinued === false
            ? 'PluginStoppedAfterResult'
            : undefined;
    if (problem !== undefined) {
      found.push({
        _tag: 'ResultNotHandled',
        problems: [problem],
        symptom: SYMPTOM.noContinue,
        meaning:
          problem === 'AnswerNeverReachedPlugin'
            ? 'Response routing is broken: the client answered but the plugin never received a result'
            : problem === 'AnswerRejectedByPlugin'
              ? 'The plugin rejected the submitted content against its schema (MCP error -32602)'
              : 'The plugin received the result but its tool call did not complete',
        action: 'Verify the plugin handles accept, cancel, and decline, and that submitted values have the schema\'s types (numbers as numbers, booleans as booleans).',
        where: at,
      });
    }
  }
  return found;
}

function approvalSetting(evidence: FormsEvidence, call: ToolCallEvidence): ApprovalSetting {
  const server = own(evidence.mcpServers, call.server) as FormsEvidence['mcpServers'][string] | undefined;
  const toolMode = server === undefined ? undefined : (own(server.tools, call.tool) as string | undefined);
  const mode = toolMode ?? server?.defaultToolsApprovalMode ?? null;
  const keyPath =
    toolMode === undefined ? formatKeyPath(['mcp_servers', call.server, 'default_tools_approval_mode']) : formatKeyPath(['mcp_servers', call.server, 'tools', call.tool, 'approval_mode']);
  return { server: call.server, tool: call.tool, mode, explicit: mode === 'prompt' || mode === 'writes', keyPath };
}

function toolCallFindings(evidence: FormsEvidence, call: ToolCallEvidence): ReadonlyArray<FormsFinding> {
  const at = [whereOf(call.server, call.tool)];
  const found: FormsFinding[] = [];
  if (call.approvalCard !== 'none') {
    const setting = approvalSetting(evidence, call);
    found.push({
      _tag: 'ToolApprovalStillPrompt',
      settings: [setting],
      symptom: SYMPTOM.allowCard,
      meaning: 'The MCP server/tool approval mode still requires approval',
      action: 'Set default_tools_approval_mode = "approve" for plugin servers that do not need approval; explicitly keep prompt for servers/tools that do.',
      where: at,
    });
    if (call.approvalCard === 'elicitation') {
      found.push({ _tag: 'ToolApprovalWrappedAsForm', symptom: 'The tool-call approval arrives as mcpServer/elicitation/request, like a plugin business form', meaning: 'features.tool_call_mcp_elicitation is not false, so Codex wraps tool-call approvals as MCP elicitation forms', action: 'Set [features] tool_call_mcp_elicitation = false.', where: at });
    }
  }
  if (call.error !== null && /requires approval, but approval policy is never/i.test(call.error)) {
    found.push({
      _tag: 'ToolCallBlockedByNever',
      symptom: 'The MCP tool call fails with "MCP tool call requires approval, but approval policy is never"',
      meaning: 'The server\'s tools ask for approval and approvalPolicy "never" cannot ask, so Codex refuses the call',
      action: `Set ${formatKeyPath(['mcp_servers', call.server, 'default_tools_approval_mode'])} = "approve", and use the granular policy ${GRANULAR} instead of "never".`,
      where: at,
    });
  }
  return found;
}

function mergeFindings(a: FormsFinding, b: FormsFinding): FormsFinding {
  const where = [...a.where, ...b.where.filter((w) => !a.where.includes(w))];
  if (a._tag === 'ToolApprovalStillPrompt' && b._tag === 'ToolApprovalStillPrompt') {
    const settings = [...a.settings, ...b.settings.filter((s) => !a.settings.some((x) => x.keyPath === s.keyPath))];
    return { ...a, settings, where };
  }
  if (a._tag === 'SchemaUnsupported' && b._tag === 'SchemaUnsupported') return { ...a, modes: [...new Set([...a.modes, ...b.modes])], where };
  if (a._tag === 'ResultNotHandled' && b._tag === 'ResultNotHandled') return { ...a, problems: [...new Set([...a.problems, ...b.problems])], where };
  return { ...a, where };
}

/**
 * Diagnoses plugin forms from evidence: the matching findings, one per `_tag` (with every place it
 * was seen), in {@link FINDING_ORDER}. An empty list means the evidence shows no problem.
 *
 * @example
 * ```ts
 * import { diagnoseForms, emptyFormsEvidence } from '@wework/elicitation-mapper';
 * const findings = diagnoseForms({
 *   ...emptyFormsEvidence,
 *   approvalPolicy: 'never',
 *   forms: [{ server: 'forms', tool: 'deploy', message: 'Choose a deployment target', mode: 'form', sent: true, hasProperties: true,
 *     duringToolCall: true, reachedClient: false, schemaSupported: null, clientAnswer: 'none', pluginResult: 'decline',
 *     pluginError: null, toolContinued: true }],
 * });
 * // [{ _tag: 'PolicyNeverAutoDeclined', approvalPolicy: 'never', where: ['forms.deploy'], action: 'Use the granular ...', ... }]
 * ```
 */
export function diagnoseForms(evidence: FormsEvidence): ReadonlyArray<FormsFinding> {
  // Only an untyped caller can pass anything else; decode untrusted JSON with `decodeFormsEvidence`.
  if (!FormsEvidenceCodec.is(evidence)) return [];
  const collected: Collected[] = [
    ...evidence.forms.flatMap((form) => formFindings(evidence, form)),
    ...evidence.toolCalls.flatMap((call) => toolCallFindings(evidence, call)),
  ].map((finding) => ({ finding }));
  if (evidence.openaiFormAdvertised === true) {
    collected.push({
      finding: { _tag: 'OpenaiFormAdvertised', symptom: 'initialize advertises openai/form', meaning: 'Plugins are told the client supports the openai/form extension', action: 'Do not advertise mcpServerOpenaiFormElicitation or extensions["openai/form"] unless Wework and the downstream client support openai/form; mode "form" needs neither.', where: [] },
    });
  }
  const byTag = new Map<FormsFindingTag, FormsFinding>();
  for (const { finding } of collected) {
    const existing = byTag.get(finding._tag);
    byTag.set(finding._tag, existing === undefined ? finding : mergeFindings(existing, finding));
  }
  return FINDING_ORDER.flatMap((tag) => {
    const finding = byTag.get(tag);
    return finding === undefined ? [] : [finding];
  });
}

/**
 * A finding as text lines for a terminal: the tag, the symptom, the meaning, the action and where.
 *
 * @example
 * ```ts
 * diagnoseForms(evidence).flatMap(formatFinding).join('\n');
 * ```
 */
export function formatFinding(finding: FormsFinding): ReadonlyArray<string> {
  // Only an untyped caller can pass anything else: what is not a finding gives no lines.
  if (!isRecord(finding) || !Array.isArray(finding.where)) return [];
  const lines = [`✗ ${finding._tag}${finding.where.length > 0 ? ` (${finding.where.join(', ')})` : ''}`, `  symptom: ${finding.symptom}`, `  meaning: ${finding.meaning}`, `  action:  ${finding.action}`];
  if (finding._tag === 'ToolApprovalStillPrompt' && Array.isArray(finding.settings)) {
    for (const s of finding.settings.filter(isRecord)) lines.push(`  setting: ${s.keyPath} = ${s.mode === null ? '(not set: Codex default "auto")' : JSON.stringify(s.mode)}${s.explicit ? ' (explicit: keep it if the tool needs per-call approval)' : ''}`);
  }
  if (finding._tag === 'ResultNotHandled' && Array.isArray(finding.problems)) lines.push(`  problem: ${finding.problems.join(', ')}`);
  return lines;
}
