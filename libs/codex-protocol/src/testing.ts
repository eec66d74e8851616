/**
 * `@wework/codex-protocol/testing`: fast-check arbitraries of protocol messages, so that hosts
 * can property-test their own handling of them. Needs `fast-check` (an optional peer dependency).
 *
 * - {@link arbitraryOf} derives an arbitrary from any generated codec.
 * - Ready arbitraries for the messages a chat host renders: elicitation requests, user-input
 *   requests and their answers, approval requests, and any server request or notification.
 *
 * Every value here is pure: arbitraries describe values; fast-check supplies the randomness.
 */
import * as fc from 'fast-check';
import * as C from './codecs/codecs.js';
import { serverNotifications, serverRequests } from './codecs/descriptors.js';
import type { AnyServerNotification, AnyServerRequest } from './Descriptor.js';
import { arbitraryOf } from './internal/arbitraryOf.js';
import type { ServerNotificationMessage, ServerRequestMessage } from './Messages.js';

export { arbitraryOf, type ArbitraryOptions } from './internal/arbitraryOf.js';

/** Params of `mcpServer/elicitation/request`, every mode. */
export const mcpServerElicitationRequestParamsArbitrary: fc.Arbitrary<C.McpServerElicitationRequestParams> = arbitraryOf(
  C.McpServerElicitationRequestParams,
);

/** Params of `mcpServer/elicitation/request` in `form` mode: a plugin's business form. */
export const formElicitationRequestParamsArbitrary: fc.Arbitrary<
  Extract<C.McpServerElicitationRequestParams, { mode: 'form' }>
> = mcpServerElicitationRequestParamsArbitrary.filter(
  (params): params is Extract<C.McpServerElicitationRequestParams, { mode: 'form' }> => params.mode === 'form',
);

/** Results a client answers `mcpServer/elicitation/request` with. */
export const mcpServerElicitationRequestResponseArbitrary: fc.Arbitrary<C.McpServerElicitationRequestResponse> = arbitraryOf(
  C.McpServerElicitationRequestResponse,
);

/** Params of `item/tool/requestUserInput`. */
export const toolRequestUserInputParamsArbitrary: fc.Arbitrary<C.ToolRequestUserInputParams> = arbitraryOf(
  C.ToolRequestUserInputParams,
);

/** Results a client answers `item/tool/requestUserInput` with. */
export const toolRequestUserInputResponseArbitrary: fc.Arbitrary<C.ToolRequestUserInputResponse> = arbitraryOf(
  C.ToolRequestUserInputResponse,
);

/** Params of `item/commandExecution/requestApproval`. */
export const commandExecutionRequestApprovalParamsArbitrary: fc.Arbitrary<C.CommandExecutionRequestApprovalParams> =
  arbitraryOf(C.CommandExecutionRequestApprovalParams);

/** Params of `item/fileChange/requestApproval`. */
export const fileChangeRequestApprovalParamsArbitrary: fc.Arbitrary<C.FileChangeRequestApprovalParams> = arbitraryOf(
  C.FileChangeRequestApprovalParams,
);

/** Params of `item/permissions/requestApproval`. */
export const permissionsRequestApprovalParamsArbitrary: fc.Arbitrary<C.PermissionsRequestApprovalParams> = arbitraryOf(
  C.PermissionsRequestApprovalParams,
);

/** Any server request, decoded: `{ method, params }` for every method with a descriptor. */
export const serverRequestMessageArbitrary: fc.Arbitrary<ServerRequestMessage> = fc.oneof(
  ...Object.values(serverRequests).map((descriptor: AnyServerRequest) =>
    arbitraryOf(descriptor.params).map((params: unknown) => ({ method: descriptor.method, params }) as ServerRequestMessage),
  ),
);

/** Any server notification, decoded: `{ method, params }` for every method with a descriptor. */
export const serverNotificationMessageArbitrary: fc.Arbitrary<ServerNotificationMessage> = fc.oneof(
  ...Object.values(serverNotifications).map((descriptor: AnyServerNotification) =>
    arbitraryOf(descriptor.params).map((params: unknown) => ({ method: descriptor.method, params }) as ServerNotificationMessage),
  ),
);
