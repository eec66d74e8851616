import { describe, expectTypeOf, it } from 'vitest';
import type * as E from 'fp-ts/lib/Either.js';
import type { McpServerElicitationRequest, ModelList, ParamsOf, ResultOf, ThreadStart, TurnStarted } from '@wework/codex-protocol';
import type { AppServerClient, ClientError, ClientEvent, ServerRequestHandler } from '../src/index.js';
import type { TerminalError } from '../src/ClientError.js';
import type { SpawnError, SpawnedAppServer } from '../src/node/index.js';

declare const client: AppServerClient;

describe('AppServerClient types', () => {
  it('types request params and results by descriptor', () => {
    expectTypeOf(client.request<typeof ThreadStart>).parameter(1).toEqualTypeOf<ParamsOf<typeof ThreadStart>>();
    expectTypeOf(client.request(ModelListValue, {})).resolves.toEqualTypeOf<E.Either<ClientError, ResultOf<typeof ModelList>>>();
  });

  it('types server request handlers and notification listeners by descriptor', () => {
    expectTypeOf<ServerRequestHandler<typeof McpServerElicitationRequest>>().parameter(0).toEqualTypeOf<ParamsOf<typeof McpServerElicitationRequest>>();
    expectTypeOf<ServerRequestHandler<typeof McpServerElicitationRequest>>().returns.toEqualTypeOf<
      | E.Either<{ readonly code?: number; readonly message: string; readonly data?: unknown }, ResultOf<typeof McpServerElicitationRequest>>
      | Promise<E.Either<{ readonly code?: number; readonly message: string; readonly data?: unknown }, ResultOf<typeof McpServerElicitationRequest>>>
    >();
    expectTypeOf(client.on<typeof TurnStarted>).parameter(1).parameter(0).toEqualTypeOf<ParamsOf<typeof TurnStarted>>();
  });

  it('keeps errors and events as tagged unions', () => {
    expectTypeOf<ClientError['_tag']>().toEqualTypeOf<
      'RequestFailed' | 'RequestTimedOut' | 'Overloaded' | 'DecodeFailed' | 'EncodeFailed' | 'ConnectionClosed' | 'ProcessExited' | 'Disposed' | 'MalformedMessage' | 'LineTooLong' | 'TransportError'
    >();
    expectTypeOf<TerminalError>().toMatchTypeOf<ClientEvent>();
    expectTypeOf<SpawnError['_tag']>().toEqualTypeOf<'CodexHomeMissing' | 'CodexNotFound' | 'SpawnFailed' | 'InitializeFailed' | 'InitializeTimedOut'>();
    expectTypeOf<SpawnedAppServer['dispose']>().returns.toEqualTypeOf<Promise<void>>();
  });
});

declare const ModelListValue: typeof ModelList;
