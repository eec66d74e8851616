/**
 * The URL-mode elicitation of the forms plugin (MCP 2025-11-25, SEP-1036): the plugin asks the user to
 * open a link for a step whose data must not pass through the client (a sign-in, a payment), as
 * `elicitation/create { mode: "url", message, url, elicitationId }`. The client only says whether the
 * user agreed to open it (`accept`, no content), declined or cancelled; the plugin learns the end of
 * the step out of band, and tells the client with `notifications/elicitation/complete { elicitationId }`.
 *
 * Everything here is plain data and pure functions.
 */
import type { ElicitRequestURLParams } from '@modelcontextprotocol/sdk/types.js';

/** Params of a URL-mode `elicitation/create` request (the MCP SDK's type, without `_meta`/`task`). */
export type UrlRequest = Pick<ElicitRequestURLParams, 'message' | 'url' | 'elicitationId'> & { readonly mode: 'url' };

/** Where the `connect_account` tool sends the user unless the call names another address. */
export const CONNECT_ACCOUNT_URL = 'https://auth.example.com/connect?client=wework-forms-plugin';

/**
 * The request of the `connect_account` tool: open `url` to connect an account.
 * @example
 * ```ts
 * connectAccountRequest('https://auth.example.com/connect', 'connect-1');
 * // { mode: 'url', message: 'Sign in to connect your account', url: 'https://auth.example.com/connect', elicitationId: 'connect-1' }
 * ```
 */
export const connectAccountRequest = (url: string, elicitationId: string): UrlRequest => ({
  mode: 'url',
  message: 'Sign in to connect your account',
  url,
  elicitationId,
});
