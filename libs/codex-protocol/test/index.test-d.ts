/**
 * Type tests of the public types of `src/index.ts`.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type {
  ItemToolRequestUserInput,
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
    expectTypeOf<ThreadItem>().toEqualTypeOf<Generated.v2.ThreadItem>();
    expectTypeOf<ThreadStartParams>().toEqualTypeOf<Generated.v2.ThreadStartParams>();
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
