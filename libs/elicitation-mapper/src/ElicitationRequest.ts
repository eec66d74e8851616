/**
 * Reads the envelope of an elicitation request from untrusted JSON: either the params of a Codex
 * `mcpServer/elicitation/request` (`threadId, turnId, serverName, mode, _meta, message,
 * requestedSchema`) or the params of a plain MCP `elicitation/create` form request (`mode?`,
 * `message`, `requestedSchema`), for hosts that embed the mapper with the MCP SDK and no Codex.
 *
 * The schema itself is read by `SchemaMapping`; this module only checks the envelope and the mode. A
 * URL-mode request (`mode: "url"`) is read by {@link decodeElicitation} into a {@link UrlElicitationRequest}
 * (its link is checked by `UrlElicitation`).
 *
 * Every function here is pure: JSON in, a value or a `_tag`ged error out.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { McpServerElicitationRequestParams } from '@wework/codex-protocol';
import type { ElicitationSource } from './Card.js';
import { isRecord } from '@wework/decode-issues';
import { describeValue, own, type JsonRecord } from './internal/json.js';
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

/** A URL-mode request: where it came from and its params (`message`, `url`, `elicitationId`), not yet checked. */
export interface UrlElicitationRequest {
  readonly source: ElicitationSource;
  readonly mode: 'url';
  readonly params: JsonRecord;
}

/**
 * Decodes the envelope of a form request. A missing `mode` means `form` (as in MCP);
 * `url` (see {@link decodeElicitation}), `openai/userVerification` and unknown modes are
 * {@link Unsupported} (`UnsupportedMode`) here.
 * @example
 * ```ts
 * decodeElicitationRequest({ mode: 'openai/userVerification', title: 'Verify', description: '', challenge: 'c' });
 * // Left({ _tag: 'UnsupportedMode', mode: 'openai/userVerification', message: 'Unsupported elicitation: mode "openai/userVerification" is not supported (use "form" or "url")' })
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
 * Decodes the envelope of any elicitation request the mapper reads: a URL-mode request, or a form
 * request as {@link decodeElicitationRequest} reads it.
 * @example
 * ```ts
 * decodeElicitation({ mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' });
 * // Right({ source: { serverName: null, threadId: null, turnId: null }, mode: 'url', params: { mode: 'url', ... } })
 * ```
 */
export function decodeElicitation(params: unknown): E.Either<Unsupported, ElicitationRequest | UrlElicitationRequest> {
  if (isRecord(params) && own(params, 'mode') === 'url') {
    if (!isCodexEnvelope(params)) return E.right({ source: noSource, mode: 'url', params });
    return E.map((source: ElicitationSource): UrlElicitationRequest => ({ source, mode: 'url', params }))(codexSource(params));
  }
  return decodeElicitationRequest(params);
}

/**
 * The envelope of a Codex `mcpServer/elicitation/request` whose params Codex's codec already decoded: no
 * second decode, only the mode's reading (`openaiForm` is `openai/form`; `openai/userVerification`
 * and unknown modes are {@link Unsupported}; `url` is read by {@link codexElicitation}).
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

/**
 * {@link codexElicitationRequest}, and the URL-mode request of a Codex `mcpServer/elicitation/request`.
 * @example
 * ```ts
 * codexElicitation({ threadId: 't', turnId: null, serverName: 'forms', environmentId: null, mode: 'url', _meta: null, message: 'Sign in', url, elicitationId: 'e1' });
 * // Right({ source: { serverName: 'forms', threadId: 't', turnId: null }, mode: 'url', params })
 * ```
 */
export function codexElicitation(params: McpServerElicitationRequestParams): E.Either<Unsupported, ElicitationRequest | UrlElicitationRequest> {
  if (isRecord(params) && params.mode === 'url') {
    return E.right({ source: { serverName: params.serverName, threadId: params.threadId, turnId: params.turnId }, mode: 'url', params });
  }
  return codexElicitationRequest(params);
}
