/**
 * Type tests of the public types of `src/index.ts`.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type {
  AskForApproval,
  AskForApprovalStrict,
  ItemToolRequestUserInput,
  TurnStatus,
  UnknownLiteral,
  UnknownVariant,
  ThreadStart,
  ClientRequestResult,
  Generated,
  ParamsOf,
  ResultOf,
  ServerNotificationMessage,
  ServerRequestMessage,
  ServerRequestResult,
  ThreadItem,
  ThreadStartParams,
  ThreadStartResponse,
  ToolRequestUserInputParams,
  ToolRequestUserInputResponse,
} from '../src/index.js';
import { codecs } from '../src/index.js';

describe('public types', () => {
  test('generated types are exported by name and under Generated', () => {
    expectTypeOf<ThreadStartParams>().toEqualTypeOf<Generated.v2.ThreadStartParams>();
    expectTypeOf<AskForApprovalStrict>().toEqualTypeOf<Generated.v2.AskForApproval>();
  });

  test('what the app-server sends is the generated type widened by the unknown cases', () => {
    // Nothing known is lost: every generated ThreadItem is a decoded ThreadItem.
    expectTypeOf<Generated.v2.ThreadItem>().toExtend<ThreadItem>();
    // The known item types are exactly the generated ones; an unknown one reads `type: undefined`.
    expectTypeOf<Exclude<ThreadItem['type'], undefined>>().toEqualTypeOf<Generated.v2.ThreadItem['type']>();
    expectTypeOf<Extract<ThreadItem, { _unknown: true }>>().toExtend<UnknownVariant<'type'>>();
    expectTypeOf<UnknownVariant<'type'>>().toExtend<Extract<ThreadItem, { _unknown: true }>>();
    // An enum admits the unknown literal, and nothing else besides the generated literals.
    expectTypeOf<TurnStatus>().toEqualTypeOf<Generated.v2.TurnStatus | UnknownLiteral>();
    // A type we also send has a strict twin: the open one admits more than the strict one.
    expectTypeOf<AskForApprovalStrict>().toExtend<AskForApproval>();
    expectTypeOf<UnknownLiteral>().toExtend<AskForApproval>();
    expectTypeOf<UnknownLiteral>().not.toExtend<AskForApprovalStrict>();
  });

  test('descriptors carry the generated params and result types', () => {
    expectTypeOf<ParamsOf<typeof ThreadStart>>().toEqualTypeOf<ThreadStartParams>();
    expectTypeOf<ResultOf<typeof ThreadStart>>().toEqualTypeOf<ThreadStartResponse>();
    expectTypeOf<ClientRequestResult<'thread/start'>>().toEqualTypeOf<ThreadStartResponse>();
    expectTypeOf<ParamsOf<typeof ItemToolRequestUserInput>>().toEqualTypeOf<ToolRequestUserInputParams>();
    expectTypeOf<ServerRequestResult<'item/tool/requestUserInput'>>().toEqualTypeOf<ToolRequestUserInputResponse>();
  });

  test('decoded messages narrow by method', () => {
    expectTypeOf<Extract<ServerRequestMessage, { method: 'item/tool/requestUserInput' }>['params']>().toEqualTypeOf<ToolRequestUserInputParams>();
    expectTypeOf<Extract<ServerNotificationMessage, { method: 'item/completed' }>['params']['item']>().toEqualTypeOf<ThreadItem>();
  });

  test('codecs decode to the generated types', () => {
    expectTypeOf(codecs.ThreadItem.decode).returns.toExtend<{ _tag: 'Right'; right: ThreadItem } | { _tag: 'Left' }>();
  });
});
