/**
 * The results an elicitation is answered with, exactly as the plugin forms spec writes them:
 * `{ action: "accept", content, _meta: null }`, `{ action: "cancel", content: null, _meta: null }`,
 * `{ action: "decline", content: null, _meta: null }`. This is the response of Codex's
 * `mcpServer/elicitation/request`; {@link toMcpElicitResult} gives the MCP SDK's `ElicitResult`.
 *
 * Every function here is pure: values in, values out.
 */
import type { Unsupported } from './Unsupported.js';
import { isRecord } from '@wework/decode-issues';

/** A value in an accepted form's content: strings, numbers, booleans, arrays of strings (multi-choice). */
export type FormValue = string | number | boolean | Array<string>;

/** The content of an accepted form: property key → value. */
export type FormContent = { [key: string]: FormValue };

/**
 * `_meta` of an accepted tool approval that Codex should remember (`session`) or persist (`always`).
 * (A type alias, not an interface, so that it is assignable to the protocol's `JsonValue`.)
 */
export type PersistMeta = {
  readonly persist: 'session' | 'always';
};

/** The user submitted the form (or allowed the tool call). */
export interface AcceptResult {
  readonly action: 'accept';
  readonly content: FormContent;
  /** `null` for forms; `{ persist }` for a tool approval allowed for the session or always. */
  readonly _meta: PersistMeta | null;
}

/** The user agreed to open the link of a URL-mode request (no content: the data goes to the plugin out of band). */
export interface OpenedResult {
  readonly action: 'accept';
  readonly content: null;
  readonly _meta: null;
}

/** The user cancelled, the task stopped, or no usable answer is available. */
export interface CancelResult {
  readonly action: 'cancel';
  readonly content: null;
  readonly _meta: null;
}

/** The user declined, or the request's mode or schema is unsupported. */
export interface DeclineResult {
  readonly action: 'decline';
  readonly content: null;
  readonly _meta: null;
}

/** The answer to an elicitation (the response of Codex's `mcpServer/elicitation/request`). */
export type ElicitResult = AcceptResult | OpenedResult | CancelResult | DeclineResult;

/**
 * `{ action: "accept", content, _meta }`.
 * @example
 * ```ts
 * acceptResult({ target: 'production' }); // { action: 'accept', content: { target: 'production' }, _meta: null }
 * ```
 */
export const acceptResult = (content: FormContent, meta: PersistMeta | null = null): AcceptResult => ({
  action: 'accept',
  content,
  _meta: meta,
});

/** `{ action: "accept", content: null, _meta: null }`: the answer to a URL-mode request the user opened. */
export const openedResult = (): OpenedResult => ({ action: 'accept', content: null, _meta: null });

/** `{ action: "cancel", content: null, _meta: null }`. */
export const cancelResult = (): CancelResult => ({ action: 'cancel', content: null, _meta: null });

/** `{ action: "decline", content: null, _meta: null }`. */
export const declineResult = (): DeclineResult => ({ action: 'decline', content: null, _meta: null });

/** The spec's answer when no usable answer is available (the host lost the card, sent nothing usable): cancel. */
export const noUsableAnswerResult = (): CancelResult => cancelResult();

/**
 * The spec's answer to a request whose mode or schema is unsupported: decline. The reason is for
 * the caller's log (`reason.message`); it never reaches the plugin.
 */
export const unsupportedResult = (_reason: Unsupported): DeclineResult => declineResult();

/** The MCP SDK's `ElicitResult`: `content` only when accepted, `_meta` only when set (the SDK rejects `null`s there). */
export interface McpElicitResult {
  readonly action: 'accept' | 'cancel' | 'decline';
  readonly content?: FormContent;
  readonly _meta?: { readonly persist: 'session' | 'always' };
}

/**
 * Converts a result for a host that answers a plain MCP `elicitation/create` (MCP SDK client):
 * drops the `null`s the SDK does not accept (an opened link is `{ action: "accept" }` without content).
 * Anything that is not a result reads as cancel.
 * @example
 * ```ts
 * toMcpElicitResult(cancelResult()); // { action: 'cancel' }
 * toMcpElicitResult(openedResult()); // { action: 'accept' }
 * ```
 */
export function toMcpElicitResult(result: ElicitResult): McpElicitResult {
  if (!isRecord(result)) return { action: 'cancel' };
  if (result.action === 'decline') return { action: 'decline' };
  if (result.action === 'accept' && result.content === null && result._meta === null) return { action: 'accept' };
  if (result.action !== 'accept' || !isRecord(result.content)) return { action: 'cancel' };
  const meta = result._meta;
  return isRecord(meta) && (meta.persist === 'session' || meta.persist === 'always')
    ? { action: 'accept', content: result.content, _meta: { persist: meta.persist } }
    : { action: 'accept', content: result.content };
}
