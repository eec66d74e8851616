/**
 * For plugin authors: ask the user with a form, safely. {@link requestForm} sends the form only
 * when the MCP client declares form elicitation (the spec: "If capabilities are unavailable or the
 * client does not support form elicitation, do not send the form request") and only when Wework
 * can render its schema, and turns every way it can end into a typed outcome: `Accepted`,
 * `Declined`, `Cancelled`, `Unsupported` or `Failed` — it never throws or rejects.
 *
 * The server is structural (`getClientCapabilities()` + `elicitInput(params, options)`), which is
 * what the MCP SDK's low-level `Server` offers (`mcpServer.server` for an `McpServer`); this
 * module does not import the SDK.
 *
 * Pure apart from the port: the only effect is the `elicitInput` call of the server passed in.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { decodeElicitationRequest } from './ElicitationRequest.js';
import type { FormContent } from './ElicitResult.js';
import { isRecord } from '@wework/decode-issues';
import { isEmptyRecord, own } from './internal/json.js';
import { schemaToQuestions } from './SchemaMapping.js';
import { unsupportedMode, type Unsupported } from './Unsupported.js';

/** What `requestForm` needs of an MCP server: the MCP SDK's low-level `Server` has both methods. */
export interface FormElicitingServer<P, O = unknown> {
  getClientCapabilities(): unknown;
  elicitInput(params: P, options?: O): Promise<unknown>;
}

/** The client did not declare form elicitation in `initialize`: the form was not sent. */
export interface ClientLacksFormElicitation {
  readonly _tag: 'ClientLacksFormElicitation';
  readonly message: string;
}

/** The user submitted the form. `content` is what the client sent (validate it: see `validateForm`). */
export interface FormAccepted {
  readonly _tag: 'Accepted';
  readonly content: FormContent;
}

/** The user declined, or the host declined the form (unsupported there). */
export interface FormDeclined {
  readonly _tag: 'Declined';
}

/** The user cancelled, or no usable answer was available. */
export interface FormCancelled {
  readonly _tag: 'Cancelled';
}

/** The form was not sent: the client cannot show forms, or Wework could not render this one. */
export interface FormUnsupported {
  readonly _tag: 'Unsupported';
  readonly reason: ClientLacksFormElicitation | Unsupported;
}

/** Sending failed or the answer was invalid (timeout, transport error, content the SDK rejected, ...). */
export interface FormFailed {
  readonly _tag: 'Failed';
  readonly message: string;
}

/** How a form request ended. */
export type FormOutcome = FormAccepted | FormDeclined | FormCancelled | FormUnsupported | FormFailed;

/** Options of {@link requestForm}. */
export interface RequestFormOptions<O> {
  /** Passed to `elicitInput` as its second argument (e.g. the SDK's `{ timeout }`). */
  readonly requestOptions?: O;
  /** Check first that Wework can render the schema (default `true`); `false` sends any form schema. */
  readonly checkSchema?: boolean;
}

/**
 * Whether MCP client capabilities declare form elicitation: `elicitation.form` is present, or
 * `elicitation` is the legacy empty object (the MCP SDK reads `{}` as `{ form: {} }`; any other
 * content without `form`, e.g. `{ url: {} }`, does not support forms).
 * @example
 * ```ts
 * supportsFormElicitation({ elicitation: {} });            // true
 * supportsFormElicitation({ elicitation: { url: {} } });   // false
 * supportsFormElicitation(undefined);                      // false
 * ```
 */
export function supportsFormElicitation(capabilities: unknown): boolean {
  const elicitation = isRecord(capabilities) ? own(capabilities, 'elicitation') : undefined;
  if (!isRecord(elicitation)) return false;
  return isRecord(own(elicitation, 'form')) || isEmptyRecord(elicitation);
}

const FormValueCodec = t.union([t.string, t.number, t.boolean, t.array(t.string)]);
const ElicitResultCodec = t.union([
  t.intersection([
    t.type({ action: t.literal('accept') }),
    t.partial({ content: t.union([t.null, t.record(t.string, FormValueCodec)]) }),
  ]),
  t.type({ action: t.keyof({ decline: null, cancel: null }) }),
]);

const clientLacksForms: ClientLacksFormElicitation = {
  _tag: 'ClientLacksFormElicitation',
  message: 'The MCP client does not declare form elicitation; the form was not sent',
};

const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'elicitInput rejected with a non-Error value';

/** What stops the form before it is sent, if anything. */
const notSendable = (server: unknown, params: unknown, checkSchema: boolean): Unsupported | ClientLacksFormElicitation | null => {
  const request = decodeElicitationRequest(params);
  if (E.isLeft(request)) return request.left;
  if (request.right.mode !== 'form') return unsupportedMode(String(own(params as Record<string, unknown>, 'mode')));
  if (checkSchema) {
    const questions = schemaToQuestions(request.right.requestedSchema);
    if (E.isLeft(questions)) return questions.left;
  }
  const capabilities = isRecord(server) && typeof server['getClientCapabilities'] === 'function' ? (server as { getClientCapabilities(): unknown }).getClientCapabilities() : undefined;
  return supportsFormElicitation(capabilities) ? null : clientLacksForms;
};

/**
 * Asks the user with a form through `server.elicitInput`, when the client supports forms and
 * Wework can render the schema. Resolves to a typed outcome; never rejects.
 * @example
 * ```ts
 * const outcome = await requestForm(mcpServer.server, {
 *   mode: 'form',
 *   message: 'Choose a deployment target',
 *   requestedSchema: {
 *     type: 'object',
 *     properties: { target: { type: 'string', title: 'Target', oneOf: [{ const: 'staging', title: 'Staging' }, { const: 'production', title: 'Production' }] } },
 *     required: ['target'],
 *   },
 * });
 * if (outcome._tag === 'Accepted') deploy(outcome.content['target']);
 * ```
 */
export async function requestForm<P, O = unknown>(
  server: FormElicitingServer<P, O>,
  params: NoInfer<P>,
  options: RequestFormOptions<NoInfer<O>> = {},
): Promise<FormOutcome> {
  try {
    const blocked = notSendable(server, params, options.checkSchema !== false);
    if (blocked !== null) return { _tag: 'Unsupported', reason: blocked };
    const raw: unknown = await (options.requestOptions === undefined ? server.elicitInput(params) : server.elicitInput(params, options.requestOptions));
    const result = ElicitResultCodec.decode(raw);
    if (E.isLeft(result)) return { _tag: 'Failed', message: 'The client answered with something that is not an ElicitResult' };
    switch (result.right.action) {
      case 'accept':
        return { _tag: 'Accepted', content: ('content' in result.right ? result.right.content : null) ?? {} };
      case 'decline':
        return { _tag: 'Declined' };
      default:
        return { _tag: 'Cancelled' };
    }
  } catch (error) {
    return { _tag: 'Failed', message: errorMessage(error) };
  }
}
