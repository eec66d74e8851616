/**
 * Builds the neutral evidence of `@wework/elicitation-mapper`'s `diagnoseForms` from a harness report:
 * what was in force (the approval policy the app-server answered `thread/start` with, later
 * `turn/start` overrides, the effective config's features and MCP approval modes, the `initialize`
 * capabilities) and what happened to each plugin form (`plugins`: the plugin's `elicitation/create`
 * and the reply it got; `cards`: what reached the client and its answer) and each MCP tool call
 * (`turns[].items`, approval cards).
 *
 * Whether a forwarded form could be shown is what Wework's executor decides with
 * `@wework/elicitation-mapper` (`handleElicitationRequest`: a card, or decline at once).
 *
 * Reports from a harness that does not record `config`/`threadParams` are completed from the
 * scenario file, the way the harness builds them (its defaults, then the scenario's overrides).
 *
 * Every function here is pure: report data in, evidence out.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { codecs, type AskForApprovalStrict } from '@wework/codex-protocol';
import { advertisesOpenaiForm, weworkFeatures } from '@wework/approval-policy';
import { handleElicitationRequest, type ElicitationAction, type FormEvidence, type FormsEvidence, type ServerApprovalEvidence, type ToolCallEvidence } from '@wework/elicitation-mapper';
import { deepMerge, harnessThreadParams } from '../CodexConfig.js';
import type { Scenario } from '../Scenario.js';
import { pairExchanges, type Exchange, type RpcError } from './PluginExchanges.js';
import type { ReportInput } from './ReportInput.js';
import { isRecord } from '@wework/decode-issues';

type Json = Readonly<Record<string, unknown>>;
const field = (u: unknown, key: string): unknown => (isRecord(u) && Object.prototype.hasOwnProperty.call(u, key) ? u[key] : undefined);

/** Where a piece of evidence came from. */
export type EvidenceSource = 'wire' | 'report' | 'scenario' | 'unknown';

/** The evidence and where its settings were read. */
export interface ReportEvidence {
  readonly evidence: FormsEvidence;
  readonly sources: { readonly approvalPolicy: EvidenceSource; readonly config: EvidenceSource };
}

const McpToolCallItem = t.type({
  type: t.literal('mcpToolCall'),
  id: t.string,
  server: t.string,
  tool: t.string,
  error: t.union([t.type({ message: t.string }), t.null, t.undefined]),
  result: t.unknown,
});
type McpToolCallItem = t.TypeOf<typeof McpToolCallItem>;

const Action = t.keyof({ accept: null, decline: null, cancel: null });
const THREAD_METHODS = new Set(['thread/start', 'thread/resume', 'thread/fork']);

function policyFromWire(wire: ReportInput['wire']): AskForApprovalStrict | undefined {
  const threadRequests = new Set<unknown>();
  let policy: AskForApprovalStrict | undefined;
  for (const { direction, message } of wire) {
    const method = field(message, 'method');
    const id = field(message, 'id');
    if (direction === 'toAppServer' && typeof method === 'string') {
      if (THREAD_METHODS.has(method)) threadRequests.add(id);
      const override = codecs.AskForApprovalStrict.decode(field(field(message, 'params'), 'approvalPolicy'));
      if (method === 'turn/start' && E.isRight(override)) policy = override.right;
    } else if (direction === 'fromAppServer' && method === undefined && threadRequests.has(id)) {
      const answered = codecs.AskForApprovalStrict.decode(field(field(message, 'result'), 'approvalPolicy'));
      if (E.isRight(answered)) policy = answered.right;
    }
  }
  return policy;
}

function initializeCapabilities(wire: ReportInput['wire']): boolean | null {
  const request = wire.find((entry) => entry.direction === 'toAppServer' && field(entry.message, 'method') === 'initialize');
  if (request === undefined) return null;
  const capabilities = field(field(request.message, 'params'), 'capabilities');
  if (capabilities === null || capabilities === undefined) return false;
  const decoded = codecs.InitializeCapabilities.decode(capabilities);
  return E.isRight(decoded) ? advertisesOpenaiForm(decoded.right) : null;
}

/** The config the harness wrote for a scenario, as far as the diagnosis needs it. */
function scenarioConfig(scenario: Scenario): Json {
  const servers = Object.fromEntries((scenario.plugins ?? []).map((plugin) => [plugin.name, { default_tools_approval_mode: plugin.toolsApproval ?? 'approve' }]));
  return deepMerge({ features: weworkFeatures, mcp_servers: servers }, scenario.config ?? {});
}

function serverApprovals(config: Json | undefined): Record<string, ServerApprovalEvidence> {
  const servers = field(config, 'mcp_servers');
  if (!isRecord(servers)) return {};
  const result: Record<string, ServerApprovalEvidence> = {};
  for (const [name, entry] of Object.entries(servers)) {
    const mode = field(entry, 'default_tools_approval_mode');
    const tools: Record<string, string> = {};
    const table = field(entry, 'tools');
    if (isRecord(table)) {
      for (const [tool, settings] of Object.entries(table)) {
        const toolMode = field(settings, 'approval_mode');
        if (typeof toolMode === 'string') tools[tool] = toolMode;
      }
    }
    result[name] = { defaultToolsApprovalMode: typeof mode === 'string' ? mode : null, tools };
  }
  return result;
}

function toolCallItems(report: ReportInput): ReadonlyArray<McpToolCallItem> {
  return report.turns.flatMap((turn) =>
    turn.items.flatMap((item) => {
      const decoded = McpToolCallItem.decode(item);
      return E.isRight(decoded) ? [decoded.right] : [];
    }),
  );
}

/** Text of a tool result's content and of its error, for the errors a plugin reports in it. */
function outputText(item: McpToolCallItem): string {
  const content = field(item.result, 'content');
  const texts = Array.isArray(content) ? content.flatMap((part) => (typeof field(part, 'text') === 'string' ? [field(part, 'text') as string] : [])) : [];
  return [...texts, item.error?.message ?? ''].join('\n');
}

/** `MCP error <code>: <message>` as the MCP SDK formats errors, found in a tool's output. */
function reportedMcpError(text: string): RpcError | null {
  const match = /MCP error (-?\d+): ([^"\n]*)/.exec(text);
  return match === null ? null : { code: Number(match[1]), message: match[2] ?? '' };
}

const isToolApprovalElicitation = (params: unknown): boolean => field(field(params, '_meta'), 'codex_approval_kind') === 'mcp_tool_call';
const isToolApprovalInput = (params: unknown): boolean => {
  const questions = field(params, 'questions');
  return Array.isArray(questions) && questions.some((q) => String(field(q, 'id')).startsWith('mcp_tool_call_approval'));
};

function answerOf(response: unknown): ElicitationAction {
  const action = Action.decode(field(response, 'action'));
  return E.isRight(action) ? action.right : 'none';
}

function toolCallsOf(report: ReportInput, items: ReadonlyArray<McpToolCallItem>, exchanges: ReadonlyMap<string, ReadonlyArray<Exchange>>): ReadonlyArray<ToolCallEvidence> {
  const usedCards = new Set<number>();
  const usedCalls = new Set<Exchange>();
  return items.map((item) => {
    const cardIndex = report.cards.findIndex(
      (card, i) =>
        !usedCards.has(i) &&
        ((card.method === 'item/tool/requestUserInput' && field(card.params, 'itemId') === item.id && isToolApprovalInput(card.params)) ||
          (card.method === 'mcpServer/elicitation/request' &&
            isToolApprovalElicitation(card.params) &&
            field(card.params, 'serverName') === item.server &&
            field(field(card.params, '_meta'), 'tool_name') === item.tool)),
    );
    if (cardIndex !== -1) usedCards.add(cardIndex);
    const card = cardIndex === -1 ? undefined : report.cards[cardIndex];
    const pluginCalls = exchanges.get(item.server);
    const call = pluginCalls?.find(
      (x) => !usedCalls.has(x) && x.sender === 'codex' && x.method === 'tools/call' && (field(field(x.params, '_meta'), 'callId') === item.id || field(x.params, 'name') === item.tool),
    );
    if (call !== undefined) usedCalls.add(call);
    return {
      server: item.server,
      tool: item.tool,
      approvalCard: card === undefined ? 'none' : card.method === 'item/tool/requestUserInput' ? 'requestUserInput' : 'elicitation',
      reachedPlugin: pluginCalls === undefined ? item.result !== null && item.result !== undefined : call !== undefined,
      error: item.error?.message ?? null,
    };
  });
}

function formsOf(report: ReportInput, items: ReadonlyArray<McpToolCallItem>, exchanges: ReadonlyMap<string, ReadonlyArray<Exchange>>): ReadonlyArray<FormEvidence> {
  const usedCards = new Set<number>();
  const forms: FormEvidence[] = [];
  for (const [server, list] of exchanges) {
    for (const request of list.filter((x) => x.sender === 'plugin' && x.method === 'elicitation/create')) {
      const message = field(request.params, 'message');
      const mode = field(request.params, 'mode');
      const call = list.find((x) => x.sender === 'codex' && x.method === 'tools/call' && x.seq < request.seq && (x.reply === null || x.reply.seq > request.seq));
      const tool = call === undefined ? null : typeof field(call.params, 'name') === 'string' ? (field(call.params, 'name') as string) : null;
      const cardIndex = report.cards.findIndex(
        (card, i) =>
          !usedCards.has(i) &&
          card.method === 'mcpServer/elicitation/request' &&
          !isToolApprovalElicitation(card.params) &&
          field(card.params, 'serverName') === server &&
          field(card.params, 'message') === message,
      );
      if (cardIndex !== -1) usedCards.add(cardIndex);
      const card = cardIndex === -1 ? undefined : report.cards[cardIndex];
      const reply = request.reply;
      const callId = field(field(call?.params, '_meta'), 'callId');
      const item = tool === null ? undefined : (items.find((candidate) => candidate.id === callId) ?? items.find((candidate) => candidate.server === server && candidate.tool === tool));
      const wireError = reply !== null && 'error' in reply ? reply.error : null;
      forms.push({
        server,
        tool,
        message: typeof message === 'string' ? message : '',
        mode: typeof mode === 'string' ? mode : 'form',
        sent: true,
        hasProperties: isRecord(field(field(request.params, 'requestedSchema'), 'properties')),
        duringToolCall: call !== undefined,
        reachedClient: card !== undefined,
        schemaSupported: card === undefined ? null : handleElicitationRequest(card.params)._tag === 'ShowCard',
        clientAnswer: card === undefined ? 'none' : answerOf(card.response),
        pluginResult: reply !== null && 'result' in reply ? answerOf(reply.result) : 'none',
        pluginError: wireError ?? (item === undefined ? null : reportedMcpError(outputText(item))),
        toolContinued: call === undefined ? null : call.reply !== null,
      });
    }
  }
  // Forms the plugin's SDK refused to send (the client lacks the capability): only the tool output tells.
  for (const item of items) {
    const text = outputText(item);
    const refused = /[^\n"]*does not support (openai\/form|form elicitation)[^\n"]*/i.exec(text);
    const sentAny = forms.some((form) => form.server === item.server && form.tool === item.tool);
    if (refused === null || sentAny) continue;
    forms.push({
      server: item.server,
      tool: item.tool,
      message: '',
      mode: /openai\/form/i.test(refused[1] ?? '') ? 'openai/form' : 'form',
      sent: false,
      hasProperties: false,
      duringToolCall: true,
      reachedClient: false,
      schemaSupported: null,
      clientAnswer: 'none',
      pluginResult: 'none',
      pluginError: { code: null, message: refused[0].trim() },
      toolContinued: true,
    });
  }
  return forms;
}

/**
 * The evidence of a report, completed from its scenario when the report does not record the
 * effective config and thread params.
 *
 * @example
 * ```ts
 * const { evidence } = evidenceFromReport(report, scenario);
 * diagnoseForms(evidence);
 * ```
 */
export function evidenceFromReport(report: ReportInput, scenario?: Scenario): ReportEvidence {
  const wirePolicy = policyFromWire(report.wire);
  const reportPolicy = codecs.AskForApprovalStrict.decode(field(report.threadParams, 'approvalPolicy'));
  const scenarioPolicy = scenario === undefined ? undefined : codecs.AskForApprovalStrict.decode(harnessThreadParams('', scenario.thread ?? {})['approvalPolicy']);
  const [approvalPolicy, policySource]: [AskForApprovalStrict | null, EvidenceSource] =
    wirePolicy !== undefined
      ? [wirePolicy, 'wire']
      : E.isRight(reportPolicy)
        ? [reportPolicy.right, 'report']
        : scenarioPolicy !== undefined && E.isRight(scenarioPolicy)
          ? [scenarioPolicy.right, 'scenario']
          : [null, 'unknown'];
  const [config, configSource]: [Json | undefined, EvidenceSource] = isRecord(report.config)
    ? [report.config, 'report']
    : scenario !== undefined
      ? [scenarioConfig(scenario), 'scenario']
      : [undefined, 'unknown'];
  const toolCallMcpElicitation = field(field(config, 'features'), 'tool_call_mcp_elicitation');
  const exchanges = new Map(Object.entries(report.plugins).map(([name, entries]) => [name, pairExchanges(entries)]));
  const items = toolCallItems(report);
  return {
    evidence: {
      approvalPolicy,
      toolCallMcpElicitation: typeof toolCallMcpElicitation === 'boolean' ? toolCallMcpElicitation : null,
      // Codex 0.171.0 has no elicitations_auto_deny setting; other runtimes may report it.
      elicitationsAutoDeny: null,
      openaiFormAdvertised: initializeCapabilities(report.wire),
      mcpServers: serverApprovals(config),
      toolCalls: toolCallsOf(report, items, exchanges),
      forms: formsOf(report, items, exchanges),
    },
    sources: { approvalPolicy: policySource, config: configSource },
  };
}
