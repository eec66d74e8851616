/**
 * Reads the envelope of an elicitation request from untrusted JSON: either the params of a Codex
 * `mcpServer/elicitation/request` (`threadId, turnId, serverName, mode, _meta, message,
 * requestedSchema`) or the params of a plain MCP `elicitation/create` form request (`mode?`,
 * `message`, `requestedSchema`), for hosts that embed the mapper with the MCP SDK and no Codex.
 *
 * The schema itself is read by `SchemaMapping`; this module only checks the envelope and the mode.
 *
 * Every function here is pure: JSON in, a value or a `_tag`ged error out.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { McpServerElicitationRequestParams } from '@wework/codex-protocol';
import type { ElicitationSource } from './Card.js';
import { describeValue, isRecord, own, type JsonRecord } from './internal/json.js';
import { invalidRequest, unsupportedMode, type Unsupported } from './Unsupported.js';

/** An elicitation request whose envelope and mode the mapper supports. */
export interface ElicitationRequest {
  readonly source: ElicitationSource;
  /** `form`, or `openai/form` (also spelled `openaiForm` by Codex's generated types). */
  readonly mode: 'form' | 'openai/form';
  readonly message: string;
  /** The form schema, not yet checked. */
  readonly requestedSchema: unknown;
  /** The request's `_meta` (any JSON), `null` when absent. */
  readonly meta: unknown;
}

const noSource: ElicitationSource = { serverName: null, threadId: null, turnId: null };

/** Modes rendered as forms, and what they are read as. */
const formModes: { readonly [mode: string]: 'form' | 'openai/form' | undefined } = {
  form: 'form',
  'openai/form': 'openai/form',
  openaiForm: 'openai/form',
};

/** Codex params carry `serverName` and `threadId`; a plain MCP request carries neither. */
const isCodexEnvelope = (params: JsonRecord): boolean => own(params, 'serverName') !== undefined || own(params, 'threadId') !== undefined;

const codexSource = (params: JsonRecord): E.Either<Unsupported, ElicitationSource> => {
  const serverName = own(params, 'serverName');
  if (typeof serverName !== 'string') return E.left(invalidRequest('params.serverName', 'string', describeValue(serverName)));
  const threadId = own(params, 'threadId');
  if (typeof threadId !== 'string') return E.left(invalidRequest('params.threadId', 'string', describeValue(threadId)));
  const turnId = own(params, 'turnId');
  if (turnId !== undefined && turnId !== null && typeof turnId !== 'string') {
    return E.left(invalidRequest('params.turnId', 'string | null', describeValue(turnId)));
  }
  return E.right({ serverName, threadId, turnId: turnId ?? null });
};

/**
 * Decodes the envelope of an elicitation request. A missing `mode` means `form` (as in MCP);
 * `url`, `openai/userVerification` and unknown modes are {@link Unsupported} (`UnsupportedMode`).
 * @example
 * ```ts
 * decodeElicitationRequest({ mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' });
 * // Left({ _tag: 'UnsupportedMode', mode: 'url', message: 'Unsupported elicitation: mode "url" is not supported (use "form")' })
 * ```
 */
export function decodeElicitationRequest(params: unknown): E.Either<Unsupported, ElicitationRequest> {
  if (!isRecord(params)) return E.left(invalidRequest('params', 'object', describeValue(params)));
  let source = noSource;
  if (isCodexEnvelope(params)) {
    const decoded = codexSource(params);
    if (E.isLeft(decoded)) return decoded;
    source = decoded.right;
  }
  const rawMode = own(params, 'mode');
  if (rawMode !== undefined && typeof rawMode !== 'string') return E.left(invalidRequest('params.mode', 'string', describeValue(rawMode)));
  const mode = rawMode === undefined ? 'form' : own(formModes, rawMode);
  if (mode !== 'form' && mode !== 'openai/form') return E.left(unsupportedMode(rawMode ?? ''));
  const message = own(params, 'message');
  if (typeof message !== 'string') return E.left(invalidRequest('params.message', 'string', describeValue(message)));
  return E.right({ source, mode, message, requestedSchema: own(params, 'requestedSchema'), meta: own(params, '_meta') ?? null });
}

/**
 * The envelope of a Codex `mcpServer/elicitation/request` whose params Codex's codec already decoded: no
 * second decode, only the mode's reading (`openaiForm` is `openai/form`; `url`, `openai/userVerification`
 * and unknown modes are {@link Unsupported}).
 * @example
 * ```ts
 * codexElicitationRequest({ threadId: 't', turnId: null, serverName: 'forms', environmentId: null, mode: 'form', _meta: null, message: 'Pick', requestedSchema });
 * // Right({ source: { serverName: 'forms', threadId: 't', turnId: null }, mode: 'form', message: 'Pick', requestedSchema, meta: null })
 * ```
 */
export function codexElicitationRequest(params: McpServerElicitationRequestParams): E.Either<Unsupported, ElicitationRequest> {
  if (!isRecord(params)) return E.left(invalidRequest('params', 'object', describeValue(params)));
  const source: ElicitationSource = { serverName: params.serverName, threadId: params.threadId, turnId: params.turnId };
  switch (params.mode) {
    case 'form':
    case 'openai/form':
    case 'openaiForm':
      return E.right({ source, mode: params.mode === 'form' ? 'form' : 'openai/form', message: params.message, requestedSchema: params.requestedSchema, meta: params._meta });
    default:
      return E.left(unsupportedMode(params.mode ?? ''));
  }
}
