/**
 * The host protocol as one JSON Schema 2020-12 document, derived from its codecs: a definition for every
 * request's params and result, every notification's params, `card/show`'s card and answer, and the
 * `data` of an error reply, plus the named shapes they share (`HostCard`, `TaskRecord`, Codex's
 * `ThreadItem`, …) under their codec names.
 *
 * A message part's definition is named after its method, each `/`-separated segment capitalised, then
 * `Params` or `Result`: `task/create` → `TaskCreateParams` and `TaskCreateResult`, `transcript/item` →
 * `TranscriptItemParams`, `card/show` → `CardShowParams` and `CardShowResult`; the error data is
 * `HostErrorData`. {@link schemaForMessage} names the one a recorded message is validated against.
 *
 * Every function here is pure: the codecs in, plain data out.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { ExecutorRequests } from './Cards.js';
import { HostErrorData } from './Handlers.js';
import { JSON_SCHEMA_DIALECT, defRef, jsonSchemaDefs, type JsonSchemaError, type JsonSchemaObject } from './JsonSchema.js';
import { HostNotifications } from './Notifications.js';
import { HostRequests } from './Requests.js';

/** The `$id` of the schema document: where its committed copy lives. */
export const HOST_PROTOCOL_SCHEMA_ID = 'https://raw.githubusercontent.com/wework-adapters/wework-adapters/main/libs/host-protocol/schema/host-protocol.schema.json';

/** The host protocol's version, as `executor/info` answers it (`protocolVersion`). */
export const HOST_PROTOCOL_VERSION = 1;

/** Which message a schema is for: a request of the host, the executor's request (`card/show`), or a notification. */
export type HostMessageKind = 'hostRequest' | 'executorRequest' | 'notification';

/** Which part of a message: a request's or notification's `params`, a response's `result`, or an error reply's `data`. */
export type HostMessagePart = 'params' | 'result' | 'errorData';

/** One message part of the protocol: its method, its codec, and the key of its definition. */
export interface HostProtocolMessage {
  readonly kind: HostMessageKind;
  /** The wire method; `*` for the error data, which the replies to every request share. */
  readonly method: string;
  readonly part: HostMessagePart;
  /** The `$defs` key of its schema. */
  readonly key: string;
  readonly codec: t.Mixed;
}

/** Where the schema of a message part is: its `$defs` key, its `$ref` inside the document, and its absolute `$ref`. */
export interface MessageSchemaRef {
  readonly key: string;
  /** `#/$defs/<key>`, for use inside the document. */
  readonly pointer: string;
  /** `<HOST_PROTOCOL_SCHEMA_ID>#/$defs/<key>`, for a validator that holds the document (`ajv.getSchema(ref)`). */
  readonly ref: string;
}

/** A message that the protocol does not have: no such method of that kind, or no such part of it. */
export type NoMessageSchema =
  | { readonly _tag: 'UnknownMethod'; readonly kind: HostMessageKind; readonly method: string }
  | { readonly _tag: 'NoSuchPart'; readonly kind: HostMessageKind; readonly method: string; readonly part: HostMessagePart };

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * The `$defs` key of a method's params or result: each segment of the method capitalised, then `Params`
 * or `Result`.
 * @example
 * ```ts
 * messageSchemaKey('integrations/apps/read', 'result'); // 'IntegrationsAppsReadResult'
 * ```
 */
export const messageSchemaKey = (method: string, part: 'params' | 'result'): string =>
  `${method
    .split(/[^A-Za-z0-9]+/)
    .map((segment) => segment.charAt(0).toUpperCase() + segment.slice(1))
    .join('')}${part === 'params' ? 'Params' : 'Result'}`;

/** The key of the error reply's `data`. */
const ERROR_DATA_KEY = 'HostErrorData';

/**
 * Every message part of the protocol with its codec and definition key, in the document's order: the
 * host's requests (params, result), `card/show` (params, result), the notifications (params), and the
 * error data (listed once, under `hostRequest` / `*`).
 */
export const hostProtocolMessages = (): ReadonlyArray<HostProtocolMessage> => [
  ...Object.values(HostRequests).flatMap((descriptor): ReadonlyArray<HostProtocolMessage> => [
    { kind: 'hostRequest', method: descriptor.method, part: 'params', key: messageSchemaKey(descriptor.method, 'params'), codec: descriptor.params },
    { kind: 'hostRequest', method: descriptor.method, part: 'result', key: messageSchemaKey(descriptor.method, 'result'), codec: descriptor.result },
  ]),
  ...Object.values(ExecutorRequests).flatMap((descriptor): ReadonlyArray<HostProtocolMessage> => [
    { kind: 'executorRequest', method: descriptor.method, part: 'params', key: messageSchemaKey(descriptor.method, 'params'), codec: descriptor.params },
    { kind: 'executorRequest', method: descriptor.method, part: 'result', key: messageSchemaKey(descriptor.method, 'result'), codec: descriptor.result },
  ]),
  ...Object.values(HostNotifications).map(
    (descriptor): HostProtocolMessage => ({ kind: 'notification', method: descriptor.method, part: 'params', key: messageSchemaKey(descriptor.method, 'params'), codec: descriptor.params }),
  ),
  { kind: 'hostRequest', method: '*', part: 'errorData', key: ERROR_DATA_KEY, codec: HostErrorData },
];

const messageRef = (key: string): MessageSchemaRef => ({ key, pointer: defRef(key), ref: `${HOST_PROTOCOL_SCHEMA_ID}${defRef(key)}` });

/**
 * Where the schema of a message part is, so that a recorded JSON-RPC message can be validated by method:
 * a host request's params, result or error `data`; `card/show`'s params (the card) or result (the
 * host's answer); a notification's params.
 * @example
 * ```ts
 * schemaForMessage('hostRequest', 'task/create', 'params'); // right({ key: 'TaskCreateParams', pointer: '#/$defs/TaskCreateParams', ref: '…host-protocol.schema.json#/$defs/TaskCreateParams' })
 * schemaForMessage('hostRequest', 'task/stop', 'errorData'); // right({ key: 'HostErrorData', … })
 * schemaForMessage('notification', 'card/dismissed', 'result'); // left({ _tag: 'NoSuchPart', … })
 * schemaForMessage('hostRequest', 'task/creat', 'params'); // left({ _tag: 'UnknownMethod', … })
 * ```
 */
export const schemaForMessage = (kind: HostMessageKind, method: string, part: HostMessagePart): E.Either<NoMessageSchema, MessageSchemaRef> => {
  const table = kind === 'hostRequest' ? HostRequests : kind === 'executorRequest' ? ExecutorRequests : HostNotifications;
  if (!hasOwn(table, method)) return E.left({ _tag: 'UnknownMethod', kind, method });
  if (part === 'params') return E.right(messageRef(messageSchemaKey(method, 'params')));
  if (part === 'result' && kind !== 'notification') return E.right(messageRef(messageSchemaKey(method, 'result')));
  if (part === 'errorData' && kind === 'hostRequest') return E.right(messageRef(ERROR_DATA_KEY));
  return E.left({ _tag: 'NoSuchPart', kind, method, part });
};

/** Where the schema of every error reply's `data` is (`HostErrorData`), whatever the request's method. */
export const errorDataSchema = (): MessageSchemaRef => messageRef(ERROR_DATA_KEY);

const memo = <A>(build: () => A): (() => A) => {
  let built: { readonly value: A } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
};

const buildSchema = memo((): E.Either<ReadonlyArray<JsonSchemaError>, JsonSchemaObject> => {
  const converted = jsonSchemaDefs(
    hostProtocolMessages().map((message) => [message.key, message.codec] as const),
    { refinements: 'exact' },
  );
  if (E.isLeft(converted)) return converted;
  return E.right({
    $schema: JSON_SCHEMA_DIALECT,
    $id: HOST_PROTOCOL_SCHEMA_ID,
    title: 'The desktop executor host protocol',
    description:
      'JSON-RPC 2.0 between the desktop executor and its host. `<Method>Params` / `<Method>Result` (each `/`-separated segment of the method capitalised: ' +
      'task/create → TaskCreateParams, TaskCreateResult) are the params and result of every request of the host, of card/show (the executor asks the host), and the params of every notification; ' +
      'HostErrorData is the data of every error reply. The other definitions are the shapes they share. Objects may carry more properties than listed (a reader ignores them).',
    $comment: 'Generated from the io-ts codecs of @wework/host-protocol (npm run schema:generate); do not edit by hand.',
    $defs: converted.right.defs,
  });
});

/**
 * The host protocol as one JSON Schema 2020-12 document (see the module's description for the names of
 * its definitions); an error when a codec of the protocol cannot be described exactly.
 * @example
 * ```ts
 * const schema = hostProtocolSchema(); // right({ $schema, $id, $defs: { TaskCreateParams, …, HostCard, … } })
 * ```
 */
export const hostProtocolSchema = (): E.Either<ReadonlyArray<JsonSchemaError>, JsonSchemaObject> => buildSchema();
