/**
 * `@wework/codex-protocol`: the Codex app-server protocol as data.
 *
 * - Types generated from the pinned Codex binary (`codex app-server generate-ts`), by name
 *   (`ThreadItem`, `ToolRequestUserInputParams`, ...) and all of them under `Generated`.
 * - io-ts codecs of the messages we use and everything they contain, under `codecs`.
 * - One descriptor per method (`ThreadStart`, `ItemToolRequestUserInput`, ...), the `Methods`
 *   name table, registries by method, and pure decoders with `_tag`ged errors.
 *
 * Everything here is pure: no IO, no clock, no process.
 */
export {
  clientNotification,
  clientRequest,
  serverNotification,
  serverRequest,
  type AnyClientNotification,
  type AnyClientRequest,
  type AnyServerNotification,
  type AnyServerRequest,
  type ClientNotificationDescriptor,
  type ClientRequestDescriptor,
  type ParamsOf,
  type ResultOf,
  type ServerNotificationDescriptor,
  type ServerRequestDescriptor,
} from './Descriptor.js';
export {
  decodeClientNotification,
  decodeClientRequest,
  decodeParams,
  decodeResult,
  decodeServerNotification,
  decodeServerRequest,
  encodeMessage,
  encodeResult,
  type AnyDescriptor,
  type AnyRequestDescriptor,
  type ClientNotificationMessage,
  type ClientNotificationMethod,
  type ClientNotifications,
  type ClientRequestMessage,
  type ClientRequestMethod,
  type ClientRequestResult,
  type ClientRequests,
  type MessageOf,
  type OutgoingMessage,
  type ServerNotificationMessage,
  type ServerNotificationMethod,
  type ServerNotifications,
  type ServerRequestMessage,
  type ServerRequestMethod,
  type ServerRequestResult,
  type ServerRequests,
} from './Messages.js';
export {
  invalidParams,
  invalidResult,
  unknownMethod,
  type InvalidParams,
  type InvalidResult,
  type MessageKind,
  type ProtocolDecodeError,
  type UnknownMethod,
} from './ProtocolDecodeError.js';
export {
  intersection,
  struct,
  StructType,
  withRest,
  WithRestType,
  type StructC,
  type StructOf,
  type StructOutputOf,
  type WithRestC,
} from './StructCodecs.js';
export {
  emptyObject,
  exactNumberOf,
  jsonBigInt,
  JsonBigIntType,
  nullable,
  NullableType,
  optionalRecord,
  toWireJson,
  type EmptyObjectC,
  type JsonBigIntC,
  type NullableC,
  type OptionalRecordC,
} from './WireCodecs.js';
/** The `Methods` name table, one descriptor per method, and the registries by method (generated). */
export * from './codecs/descriptors.js';
/** The io-ts codecs (generated), one per generated type we decode, by the type's name; each built on first use. */
export { codecs } from './codecs/codecTable.js';
/** The generated types that have a codec, by name, and the static types of the codecs (`ThreadItemCodec`). */
export type * from './codecs/types.js';
/** Every generated type of the protocol, as ts-rs laid them out (`Generated.v2.ThreadItem`). */
export type * as Generated from './generated/index.js';
export { copyRecord, deepMerge, jsonEqual, own, withKey, withoutKey, type JsonRecord } from './JsonRecord.js';
export {
  isKnownLiteral,
  isUnknownVariant,
  openKeyof,
  OpenKeyofType,
  openUnion,
  OpenUnionType,
  type OpenKeyofC,
  type OpenUnionC,
  type SomeUnknownVariant,
  type UnknownLiteral,
  type UnknownVariant,
} from './OpenCodecs.js';
export { hasUnknownParts, loggableLiteral, unknownParts, type UnknownPart, type UnknownPartsOptions } from './UnknownParts.js';
