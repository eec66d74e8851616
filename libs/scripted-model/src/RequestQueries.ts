/**
 * Questions a test asks about a recorded request: which tools Codex offered, what the input
 * history held, which tool results reached the model, what the user wrote, which images were
 * attached. Each item is decoded with io-ts; items of other shapes are skipped, so every query
 * is total: it never throws, whatever JSON the body holds.
 *
 * Every function here is pure: plain data in, plain data out.
 */
import * as t from 'io-ts';
import { isRecord } from '@wework/decode-issues';

/** Anything with a parsed request body, such as a {@link RecordedRequest}. */
export interface HasBody {
  readonly body: unknown;
}

/** A tool offered to the model; tools inside a namespace carry the namespace. */
export interface OfferedTool {
  /** `function`, `custom`, `web_search`, … */
  readonly type: string;
  /** The tool name; for nameless built-ins (e.g. `web_search`) the type. */
  readonly name: string;
  /** `mcp__<server>` for MCP tools. */
  readonly namespace?: string;
}

/** One item of the request's `input` history: an object with a string `type`. */
export type InputItem = Readonly<Record<string, unknown>> & { readonly type: string };

/** A tool result the model received. */
export interface FunctionCallOutput {
  readonly callId: string;
  readonly type: 'function_call_output' | 'custom_tool_call_output';
  /** The text parts of the output joined with newlines (or the output itself when a string). */
  readonly text: string;
  /** The output exactly as sent. */
  readonly output: unknown;
}

/** A tool call the model made earlier, as replayed in the history. */
export interface HistoryCall {
  readonly callId: string;
  readonly type: 'function_call' | 'custom_tool_call';
  readonly name: string;
  readonly namespace?: string;
  /** The arguments string of a function call, or the input of a custom tool call. */
  readonly arguments: string;
}

/** An image attached to a user message. */
export interface AttachedImage {
  /** A `data:` URL or an http(s) URL. */
  readonly imageUrl: string;
}

const Tool = t.intersection([t.type({ type: t.string }), t.partial({ name: t.string, tools: t.UnknownArray })]);
const TextPart = t.type({ type: t.keyof({ input_text: null, output_text: null }), text: t.string });
const ImagePart = t.type({ type: t.literal('input_image'), image_url: t.string });
const Message = t.type({ type: t.literal('message'), role: t.string, content: t.UnknownArray });
const CallOutput = t.type({ type: t.keyof({ function_call_output: null, custom_tool_call_output: null }), call_id: t.string, output: t.unknown });
const FunctionCall = t.intersection([
  t.type({ type: t.literal('function_call'), call_id: t.string, name: t.string, arguments: t.string }),
  t.partial({ namespace: t.string }),
]);
const CustomCall = t.type({ type: t.literal('custom_tool_call'), call_id: t.string, name: t.string, input: t.string });

function arrayField(body: unknown, field: string): ReadonlyArray<unknown> {
  if (!isRecord(body)) return [];
  const value = body[field];
  return Array.isArray(value) ? value : [];
}

/**
 * The tools offered in the request, namespaces flattened, in the order sent.
 *
 * @example
 * ```ts
 * toolsOffered({ body: { tools: [{ type: 'namespace', name: 'mcp__forms', tools: [{ type: 'function', name: 'echo' }] }] } });
 * // [{ type: 'function', name: 'echo', namespace: 'mcp__forms' }]
 * ```
 */
export function toolsOffered(request: HasBody): ReadonlyArray<OfferedTool> {
  const out: OfferedTool[] = [];
  const visit = (tools: ReadonlyArray<unknown>, namespace: string | undefined): void => {
    for (const tool of tools) {
      if (!Tool.is(tool)) continue;
      if (tool.type === 'namespace' && tool.name !== undefined && tool.tools !== undefined) {
        visit(tool.tools, tool.name);
        continue;
      }
      const name = tool.name ?? tool.type;
      out.push(namespace === undefined ? { type: tool.type, name } : { type: tool.type, name, namespace });
    }
  };
  visit(arrayField(request.body, 'tools'), undefined);
  return out;
}

/** The `input` history items that are objects with a string `type`, in order. */
export function inputItems(request: HasBody): ReadonlyArray<InputItem> {
  return arrayField(request.body, 'input').filter((item): item is InputItem => isRecord(item) && typeof item['type'] === 'string');
}

/** Joins the text parts of a content array (or returns a string as is). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.filter((part) => TextPart.is(part)).map((part) => part.text).join('\n');
  if (isRecord(content) && typeof content['content'] === 'string') return content['content'];
  return '';
}

/** Every tool result in the history (so a test can assert that a tool's output reached the model). */
export function functionCallOutputs(request: HasBody): ReadonlyArray<FunctionCallOutput> {
  return inputItems(request)
    .filter((item) => CallOutput.is(item))
    .map((item) => ({ callId: item.call_id, type: item.type, text: contentText(item.output), output: item.output }));
}

/** Every tool call of the model replayed in the history. */
export function historyCalls(request: HasBody): ReadonlyArray<HistoryCall> {
  const out: HistoryCall[] = [];
  for (const item of inputItems(request)) {
    if (FunctionCall.is(item)) {
      const base = { callId: item.call_id, type: item.type, name: item.name, arguments: item.arguments };
      out.push(item.namespace === undefined ? base : { ...base, namespace: item.namespace });
    } else if (CustomCall.is(item)) {
      out.push({ callId: item.call_id, type: item.type, name: item.name, arguments: item.input });
    }
  }
  return out;
}

function messagesOf(request: HasBody, role: string): ReadonlyArray<t.TypeOf<typeof Message>> {
  return inputItems(request)
    .filter((item) => Message.is(item))
    .filter((message) => message.role === role);
}

/**
 * The text of every user-role message, in order. Codex also sends its own context (e.g. an
 * `<environment_context>` block) as user-role messages; they are included.
 */
export function userMessages(request: HasBody): ReadonlyArray<string> {
  return messagesOf(request, 'user').map((message) => contentText(message.content));
}

/** The text of every assistant message replayed in the history, in order. */
export function assistantMessages(request: HasBody): ReadonlyArray<string> {
  return messagesOf(request, 'assistant').map((message) => contentText(message.content));
}

/** Every image attached to a user message, in order. */
export function imagesAttached(request: HasBody): ReadonlyArray<AttachedImage> {
  return messagesOf(request, 'user').flatMap((message) =>
    message.content.filter((part) => ImagePart.is(part)).map((part) => ({ imageUrl: part.image_url })),
  );
}

/** A skill Codex told the model it may use, as listed in its skills instructions. */
export interface AvailableSkill {
  /** `name`, or `plugin:name` for a plugin's skill. */
  readonly name: string;
  readonly description: string;
  /** The skill's file as Codex wrote it: a short path under a skill root (`r1/…/SKILL.md`). */
  readonly file: string;
}

const SKILLS_OPEN = '<skills_instructions>';
const SKILLS_CLOSE = '</skills_instructions>';
const AVAILABLE_HEADING = '### Available skills';
const SKILL_LINE = /^- (.+?): (.*) \(file: ([^()]*)\)$/;

/**
 * The skills the model is told it may use in this request: Codex sends a developer message with a
 * `<skills_instructions>` block at the start of a thread and a new one whenever the set changes, and
 * the whole history every time, so the latest block is the one in force. Empty when none was sent.
 *
 * @example
 * ```ts
 * skillsAvailable(request).map((skill) => skill.name); // ['imagegen', 'demo-plugin:greet', …]
 * ```
 */
export function skillsAvailable(request: HasBody): ReadonlyArray<AvailableSkill> {
  const blocks = messagesOf(request, 'developer')
    .map((message) => contentText(message.content))
    .filter((text) => text.includes(SKILLS_OPEN));
  const latest = blocks[blocks.length - 1];
  if (latest === undefined) return [];
  const open = latest.lastIndexOf(SKILLS_OPEN);
  const close = latest.indexOf(SKILLS_CLOSE, open);
  const block = close === -1 ? latest.slice(open) : latest.slice(open, close);
  const heading = block.indexOf(AVAILABLE_HEADING);
  if (heading === -1) return [];
  const out: AvailableSkill[] = [];
  for (const line of block.slice(heading + AVAILABLE_HEADING.length).split('\n')) {
    if (line.startsWith('#')) break;
    const match = SKILL_LINE.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined && match[3] !== undefined) out.push({ name: match[1], description: match[2], file: match[3] });
  }
  return out;
}
