/**
 * Runtime detection of `connector_auth_required` in the final assistant or system message of a turn.
 * Every function is pure and total: any JSON in, a classification out, with work bounded by fixed
 * limits whatever the size of the message.
 *
 * Only this message is read, never the transcript. Its detection text is built from message errors,
 * message content, and textual or known structured error fields of tool blocks, up to
 * {@link DETECTION_LIMITS}`.maxTextLength` characters; presentation data such as `renderPayload` is never
 * read. A login card needs an explicit `connector_auth_required` with the exact `pluginKey` and
 * `connectorSlug`: a missing or ambiguous identity is never guessed, and network failures, missing
 * business permissions and native remote MCP authorization requests are classified as what they are.
 *
 * The message shape read (everything optional, anything else ignored):
 *
 * ```ts
 * { role: 'assistant' | 'system',
 *   content: string | [{ type: 'text', text }],
 *   error: string | { code, message, ... },
 *   blocks: [{ type: 'text', text } | { type: 'tool', name, error, output, result: { isError, content: [{ type: 'text', text }], structuredContent } }] }
 * ```
 */
import { isRecord } from '@wework/decode-issues';

/** Fixed bounds of one detection. */
export const DETECTION_LIMITS = {
  /** Characters of detection text (64 KiB). */
  maxTextLength: 64 * 1024,
  /** JSON nodes visited in structured fields. */
  maxNodes: 4096,
  /** Nesting followed in structured fields. */
  maxDepth: 8,
  /** Tool blocks read. */
  maxBlocks: 256,
} as const;

/** The marker plugins use. */
export const AUTH_REQUIRED_CODE = 'connector_auth_required';

/** A login card for exactly this plugin connector. */
export interface ConnectorAuthRequired {
  readonly _tag: 'ConnectorAuthRequired';
  readonly pluginKey: string;
  readonly connectorSlug: string;
  /** The tool whose call was blocked, when the marker came from a tool block that names it. */
  readonly toolName: string | undefined;
  readonly source: 'structured' | 'text';
}

/** Why a message does not show a login card. */
export type NotAuthRequiredReason =
  | 'not_final_message'
  | 'no_signal'
  | 'missing_identity'
  | 'ambiguous_identity'
  | 'network_failure'
  | 'permission_denied'
  | 'remote_mcp_auth';

/** No login card. */
export interface NotAuthRequired {
  readonly _tag: 'NotAuthRequired';
  readonly reason: NotAuthRequiredReason;
}

/** The classification of a final message. */
export type AuthDetection = ConnectorAuthRequired | NotAuthRequired;

/** The bounded text and markers read from a message. */
export interface DetectionInput {
  readonly text: string;
  readonly truncated: boolean;
  readonly nodesVisited: number;
  readonly markers: ReadonlyArray<{ readonly pluginKey: string | undefined; readonly connectorSlug: string | undefined; readonly toolName: string | undefined }>;
}

const IDENTITY = /^[A-Za-z0-9][A-Za-z0-9._@:/+-]{0,199}$/;
const ERROR_FIELDS = ['code', 'error', 'type', 'kind', 'reason', 'status', 'message', 'detail', 'details', 'description', 'pluginKey', 'connectorSlug', 'plugin_key', 'connector_slug', 'data', 'cause'];
const MARKER_FIELDS = ['code', 'error', 'type', 'kind', 'reason'];

const own = (record: Record<string, unknown>, key: string): unknown => (Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined);
const identity = (value: unknown): string | undefined => (typeof value === 'string' && IDENTITY.test(value) ? value : undefined);

/**
 * Builds the bounded detection input of a message. Total: never throws, visits at most
 * `maxNodes` JSON nodes and keeps at most `maxTextLength` characters.
 */
export function detectionInput(message: unknown): DetectionInput {
  const parts: string[] = [];
  let length = 0;
  let truncated = false;
  let nodes = 0;
  const markers: Array<DetectionInput['markers'][number]> = [];
  const full = (): boolean => length >= DETECTION_LIMITS.maxTextLength;
  const addText = (value: string): void => {
    if (full()) {
      truncated ||= value.length > 0;
      return;
    }
    const room = DETECTION_LIMITS.maxTextLength - length;
    const piece = value.length > room - 1 ? value.slice(0, Math.max(0, room - 1)) : value;
    truncated ||= piece.length < value.length;
    parts.push(piece);
    length += piece.length + 1;
  };
  const visit = (): boolean => ++nodes <= DETECTION_LIMITS.maxNodes;

  /** Known error fields of a structured value, recursively within the bounds. */
  const structured = (value: unknown, depth: number, toolName: string | undefined): void => {
    if (!visit() || depth > DETECTION_LIMITS.maxDepth) return;
    if (typeof value === 'string') return addText(value);
    if (typeof value === 'number' || typeof value === 'boolean') return addText(String(value));
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 32)) structured(item, depth + 1, toolName);
      return;
    }
    if (!isRecord(value)) return;
    if (MARKER_FIELDS.some((field) => own(value, field) === AUTH_REQUIRED_CODE)) {
      markers.push({
        pluginKey: identity(own(value, 'pluginKey') ?? own(value, 'plugin_key')),
        connectorSlug: identity(own(value, 'connectorSlug') ?? own(value, 'connector_slug')),
        toolName,
      });
    }
    for (const field of ERROR_FIELDS) {
      const item = own(value, field);
      if (item !== undefined) structured(item, depth + 1, toolName);
    }
  };

  const content = (value: unknown): void => {
    if (typeof value === 'string') return addText(value);
    if (!Array.isArray(value)) return;
    for (const part of value.slice(0, DETECTION_LIMITS.maxBlocks)) {
      if (!visit()) return;
      if (isRecord(part) && typeof own(part, 'text') === 'string') addText(own(part, 'text') as string);
    }
  };

  const toolBlock = (block: Record<string, unknown>): void => {
    const nameValue = own(block, 'name') ?? own(block, 'toolName') ?? own(block, 'tool');
    const toolName = typeof nameValue === 'string' && nameValue.length <= 200 ? nameValue : undefined;
    const error = own(block, 'error');
    if (error !== undefined) structured(error, 0, toolName);
    const output = own(block, 'output');
    if (typeof output === 'string') addText(output);
    const result = own(block, 'result');
    if (isRecord(result)) {
      content(own(result, 'content'));
      const structuredContent = own(result, 'structuredContent');
      if (structuredContent !== undefined) structured(structuredContent, 0, toolName);
      const resultError = own(result, 'error');
      if (resultError !== undefined) structured(resultError, 0, toolName);
    } else if (typeof result === 'string') addText(result);
    // renderPayload and every other presentation field is deliberately not read.
  };

  try {
    if (isRecord(message)) {
      const error = own(message, 'error');
      if (error !== undefined) structured(error, 0, undefined);
      content(own(message, 'content'));
      const blocks = own(message, 'blocks');
      if (Array.isArray(blocks)) {
        for (const block of blocks.slice(0, DETECTION_LIMITS.maxBlocks)) {
          if (!visit()) break;
          if (!isRecord(block)) continue;
          if (own(block, 'type') === 'text') {
            const text = own(block, 'text');
            if (typeof text === 'string') addText(text);
          } else toolBlock(block);
        }
      }
    }
  } catch {
    // Getters or proxies in a host object: keep what was read.
  }
  return { text: parts.join('\n'), truncated, nodesVisited: Math.min(nodes, DETECTION_LIMITS.maxNodes), markers };
}

const TEXT_MARKER = /connector_auth_required/g;
const PLUGIN_KEY_TEXT = /["']?(?:pluginKey|plugin_key)["']?\s*[:=]\s*["']?([A-Za-z0-9][A-Za-z0-9._@:/+-]{0,199})/;
const CONNECTOR_TEXT = /["']?(?:connectorSlug|connector_slug)["']?\s*[:=]\s*["']?([A-Za-z0-9][A-Za-z0-9._@:/+-]{0,199})/;

/** Sentence punctuation after an identity in prose (`... connectorSlug=glab.`) is not part of it. */
const trimTrailing = (value: string | undefined): string | undefined => {
  const trimmed = value?.replace(/[.:/]+$/, '');
  return trimmed === '' ? undefined : trimmed;
};

const NETWORK = /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|socket hang up|network (?:error|failure|is unreachable)|fetch failed|getaddrinfo|connection (?:refused|reset|timed out)|TLS handshake|certificate has expired|DNS)\b/i;
const PERMISSION = /\b(?:403|forbidden|permission denied|insufficient (?:permission|privilege|scope)s?|not authori[sz]ed to|access denied|missing (?:required )?permissions?|no permission)\b/i;
const REMOTE_MCP_AUTH = /\b(?:codex mcp login|mcp(?:Server)?\/oauth|oauth(?:Login)?\s+(?:is\s+)?required for (?:the )?(?:remote )?mcp|mcp server [^\n]{0,80}(?:requires|needs) (?:oauth|authentication|authorization)|remote mcp[^\n]{0,80}(?:oauth|authori[sz]ation|authentication))/i;

/**
 * Classifies the final message of a turn. Messages of other roles are `not_final_message`.
 *
 * @example
 * ```ts
 * detectAuthRequired({ role: 'assistant', blocks: [{ type: 'tool', name: 'gitlab.list_issues',
 *   error: { code: 'connector_auth_required', pluginKey: 'gitlab@wegent', connectorSlug: 'glab' } }] });
 * // { _tag: 'ConnectorAuthRequired', pluginKey: 'gitlab@wegent', connectorSlug: 'glab', toolName: 'gitlab.list_issues', source: 'structured' }
 * detectAuthRequired({ role: 'assistant', content: 'fetch failed: ECONNREFUSED' });
 * // { _tag: 'NotAuthRequired', reason: 'network_failure' }
 * ```
 */
export function detectAuthRequired(message: unknown): AuthDetection {
  const role = isRecord(message) ? own(message, 'role') : undefined;
  if (role !== 'assistant' && role !== 'system') return { _tag: 'NotAuthRequired', reason: 'not_final_message' };
  const input = detectionInput(message);
  const found: Array<Omit<ConnectorAuthRequired, '_tag'>> = [];
  let incomplete = false;
  for (const marker of input.markers) {
    if (marker.pluginKey === undefined || marker.connectorSlug === undefined) incomplete = true;
    else found.push({ pluginKey: marker.pluginKey, connectorSlug: marker.connectorSlug, toolName: marker.toolName, source: 'structured' });
  }
  if (found.length === 0) {
    for (const match of input.text.matchAll(TEXT_MARKER)) {
      const window = input.text.slice(Math.max(0, match.index - 256), match.index + 512);
      const after = input.text.slice(match.index, match.index + 512);
      const pluginKey = trimTrailing(PLUGIN_KEY_TEXT.exec(after)?.[1] ?? PLUGIN_KEY_TEXT.exec(window)?.[1]);
      const connectorSlug = trimTrailing(CONNECTOR_TEXT.exec(after)?.[1] ?? CONNECTOR_TEXT.exec(window)?.[1]);
      if (pluginKey === undefined || connectorSlug === undefined) incomplete = true;
      else found.push({ pluginKey, connectorSlug, toolName: undefined, source: 'text' });
      if (found.length + (incomplete ? 1 : 0) > 16) break;
    }
  }
  const distinct = new Set(found.map((item) => JSON.stringify([item.pluginKey, item.connectorSlug])));
  if (distinct.size > 1) return { _tag: 'NotAuthRequired', reason: 'ambiguous_identity' };
  const first = found[0];
  if (first !== undefined) return { _tag: 'ConnectorAuthRequired', ...first };
  if (REMOTE_MCP_AUTH.test(input.text)) return { _tag: 'NotAuthRequired', reason: 'remote_mcp_auth' };
  if (incomplete) return { _tag: 'NotAuthRequired', reason: 'missing_identity' };
  if (NETWORK.test(input.text)) return { _tag: 'NotAuthRequired', reason: 'network_failure' };
  if (PERMISSION.test(input.text)) return { _tag: 'NotAuthRequired', reason: 'permission_denied' };
  return { _tag: 'NotAuthRequired', reason: 'no_signal' };
}
