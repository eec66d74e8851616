/**
 * Encodes a scripted response as the OpenAI Responses API streaming events Codex reads:
 * `response.created`, per output item `response.output_item.added` … `response.output_item.done`
 * (with the text, reasoning-summary, function-argument or custom-tool-input events in between),
 * and `response.completed` with `usage`. {@link formatSse} renders events as server-sent events.
 *
 * Ids are derived from the response number and the step index, so they are unique across a
 * whole script run (Codex uses an assistant message's id as its item id in the thread).
 *
 * Every function here is pure: plain data in, plain data or text out.
 */
import type { Step, ToolArguments } from './Script.js';

/** Where in a script run a response sits, and what the server knows about the request. */
export interface ResponseContext {
  /** Index of this response in the script (0-based); part of every id. */
  readonly responseNumber: number;
  /** Model name echoed in the response object. */
  readonly model: string;
  /** Creation time, Unix seconds. */
  readonly createdAt: number;
  /** Input token count reported in `usage` (an estimate is fine). */
  readonly inputTokens: number;
}

/** One streaming event: its `type`, its `sequence_number`, and event-specific fields. */
export interface ResponseEvent {
  readonly type: string;
  readonly sequence_number: number;
  readonly [field: string]: unknown;
}

/** A Responses API output item as streamed in `response.output_item.done`. */
export type OutputItem = Readonly<Record<string, unknown>> & { readonly type: string; readonly id: string };

/** The namespace Codex gives the tools of MCP server `server`. */
export function mcpNamespace(server: string): string {
  return `mcp__${server}`;
}

/** The id of the response with this number. */
export function responseId(responseNumber: number): string {
  return `resp_${responseNumber}`;
}

/** The `call_id` a call step gets when the script does not name one. */
export function defaultCallId(responseNumber: number, stepIndex: number): string {
  return `call_${responseNumber}_${stepIndex}`;
}

/**
 * Splits text into streaming deltas at whitespace boundaries (never inside a code point);
 * the deltas concatenate to the text. Empty text gives no deltas.
 */
export function textDeltas(text: string): ReadonlyArray<string> {
  return text.match(/\s*\S+\s*|\s+/gu) ?? [];
}

/** The function-call arguments string for an arguments object. */
export function argumentsJson(args: ToolArguments): string {
  return JSON.stringify(args);
}

function shellArguments(step: Extract<Step, { kind: 'shell' }>): ToolArguments {
  const args: Record<string, unknown> = { cmd: step.cmd };
  if (step.sandboxPermissions !== undefined) args['sandbox_permissions'] = step.sandboxPermissions;
  if (step.justification !== undefined) args['justification'] = step.justification;
  if (step.workdir !== undefined) args['workdir'] = step.workdir;
  return args;
}

/** The completed output item a step becomes. */
export function outputItem(step: Step, responseNumber: number, stepIndex: number): OutputItem {
  const suffix = `${responseNumber}_${stepIndex}`;
  const callId = 'callId' in step && step.callId !== undefined ? step.callId : defaultCallId(responseNumber, stepIndex);
  switch (step.kind) {
    case 'say':
      return {
        type: 'message',
        id: `msg_${suffix}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: step.text, annotations: [] }],
      };
    case 'reasoning':
      return { type: 'reasoning', id: `rs_${suffix}`, summary: [{ type: 'summary_text', text: step.summary }] };
    case 'callTool':
      return functionCall(`fc_${suffix}`, callId, step.tool, argumentsJson(step.arguments), mcpNamespace(step.server));
    case 'callFunction':
      return functionCall(`fc_${suffix}`, callId, step.name, argumentsJson(step.arguments), step.namespace);
    case 'shell':
      return functionCall(`fc_${suffix}`, callId, 'exec_command', argumentsJson(shellArguments(step)), undefined);
    case 'applyPatch':
      return { type: 'custom_tool_call', id: `ctc_${suffix}`, status: 'completed', call_id: callId, name: 'apply_patch', input: step.patch };
  }
}

function functionCall(id: string, callId: string, name: string, args: string, namespace: string | undefined): OutputItem {
  return {
    type: 'function_call',
    id,
    status: 'completed',
    call_id: callId,
    name,
    ...(namespace === undefined ? {} : { namespace }),
    arguments: args,
  };
}

type EventBody = Readonly<Record<string, unknown>> & { readonly type: string };

/** The events between `output_item.added` and `output_item.done` for one item. */
function itemBodyEvents(item: OutputItem, outputIndex: number): ReadonlyArray<EventBody> {
  const at = { item_id: item.id, output_index: outputIndex };
  switch (item.type) {
    case 'message': {
      const text = messageText(item);
      const part = { type: 'output_text', annotations: [] };
      return [
        { type: 'response.content_part.added', ...at, content_index: 0, part: { ...part, text: '' } },
        ...textDeltas(text).map((delta) => ({ type: 'response.output_text.delta', ...at, content_index: 0, delta })),
        { type: 'response.output_text.done', ...at, content_index: 0, text },
        { type: 'response.content_part.done', ...at, content_index: 0, part: { ...part, text } },
      ];
    }
    case 'reasoning': {
      const text = reasoningText(item);
      return [
        { type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part: { type: 'summary_text', text: '' } },
        ...textDeltas(text).map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta })),
        { type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text },
        { type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { type: 'summary_text', text } },
      ];
    }
    case 'function_call': {
      const args = String(item['arguments']);
      return [
        { type: 'response.function_call_arguments.delta', ...at, delta: args },
        { type: 'response.function_call_arguments.done', ...at, arguments: args },
      ];
    }
    case 'custom_tool_call': {
      const input = String(item['input']);
      return [
        { type: 'response.custom_tool_call_input.delta', ...at, delta: input },
        { type: 'response.custom_tool_call_input.done', ...at, input },
      ];
    }
    default:
      return [];
  }
}

function messageText(item: OutputItem): string {
  const content = item['content'] as ReadonlyArray<{ readonly text: string }>;
  return content.map((part) => part.text).join('');
}

function reasoningText(item: OutputItem): string {
  const summary = item['summary'] as ReadonlyArray<{ readonly text: string }>;
  return summary.map((part) => part.text).join('');
}

/** The in-progress form of an item, as announced by `response.output_item.added`. */
function addedItem(item: OutputItem): OutputItem {
  switch (item.type) {
    case 'message':
      return { ...item, status: 'in_progress', content: [] };
    case 'reasoning':
      return { ...item, summary: [] };
    case 'function_call':
      return { ...item, status: 'in_progress', arguments: '' };
    case 'custom_tool_call':
      return { ...item, status: 'in_progress', input: '' };
    default:
      return item;
  }
}

function responseObject(context: ResponseContext, status: string, output: ReadonlyArray<OutputItem>): Record<string, unknown> {
  return {
    id: responseId(context.responseNumber),
    object: 'response',
    created_at: context.createdAt,
    status,
    model: context.model,
    output,
  };
}

function estimateTokens(items: ReadonlyArray<OutputItem>): number {
  return Math.ceil(JSON.stringify(items).length / 4);
}

function numbered(bodies: ReadonlyArray<EventBody>): ReadonlyArray<ResponseEvent> {
  return bodies.map((body, index) => ({ ...body, sequence_number: index }));
}

/**
 * The full event sequence of a successful response made of `steps`.
 *
 * @example
 * ```ts
 * import { say } from '@wework/scripted-model';
 * import { responseEvents } from './ResponseEvents.js';
 * const events = responseEvents([say('Hi')], { responseNumber: 0, model: 'mock-model', createdAt: 0, inputTokens: 10 });
 * events.map((e) => e.type);
 * // ['response.created', 'response.output_item.added', 'response.content_part.added',
 * //  'response.output_text.delta', 'response.output_text.done', 'response.content_part.done',
 * //  'response.output_item.done', 'response.completed']
 * ```
 */
export function responseEvents(steps: ReadonlyArray<Step>, context: ResponseContext): ReadonlyArray<ResponseEvent> {
  const items = steps.map((step, index) => outputItem(step, context.responseNumber, index));
  const outputTokens = estimateTokens(items);
  const bodies: EventBody[] = [{ type: 'response.created', response: responseObject(context, 'in_progress', []) }];
  items.forEach((item, outputIndex) => {
    bodies.push({ type: 'response.output_item.added', output_index: outputIndex, item: addedItem(item) });
    bodies.push(...itemBodyEvents(item, outputIndex));
    bodies.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  bodies.push({
    type: 'response.completed',
    response: {
      ...responseObject(context, 'completed', items),
      usage: {
        input_tokens: context.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: context.inputTokens + outputTokens,
      },
    },
  });
  return numbered(bodies);
}

/** The events sent before a hanging response stops: only `response.created`. */
export function hangEvents(context: ResponseContext): ReadonlyArray<ResponseEvent> {
  return numbered([{ type: 'response.created', response: responseObject(context, 'in_progress', []) }]);
}

/** Renders one event as a server-sent event (`event:` line, `data:` line, blank line). */
export function formatSseEvent(event: ResponseEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Renders events as a server-sent-event stream body. */
export function formatSse(events: ReadonlyArray<ResponseEvent>): string {
  return events.map(formatSseEvent).join('');
}

/** An OpenAI-style error body. */
export interface ErrorBody {
  readonly error: { readonly message: string; readonly type: string; readonly code: string | null };
}

/** Builds an OpenAI-style error body. */
export function errorBody(message: string, type: string, code: string | null = null): ErrorBody {
  return { error: { message, type, code } };
}
