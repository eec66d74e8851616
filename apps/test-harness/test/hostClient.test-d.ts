/**
 * Type tests: the host client's requests are typed by `@wework/host-protocol` and nothing else — each
 * method's result is exactly `t.TypeOf` of the library's result codec, its params the library's params —
 * so a change of one method's result shape in the library fails the harness's typecheck wherever the
 * harness relies on the old shape.
 */
import type * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { describe, expectTypeOf, test } from 'vitest';
import type { HostMethod, HostParamsOf, HostRequests, InstalledInventory, MarketplaceList, MessageSend, PendingCard, PluginDetails, SendResult, TaskCreate, TrialResult } from '@wework/host-protocol';
import type { ExecutorHostClient, HostRequestError, HostRequestParams } from '../src/host/ExecutorHostClient.js';

declare const client: ExecutorHostClient;

type ClientResults = { [M in HostMethod]: Awaited<ReturnType<typeof client.request<M>>> };
type ProtocolResults = { [M in HostMethod]: E.Either<HostRequestError, t.TypeOf<(typeof HostRequests)[M]['result']>> };
type ClientParams = { [M in HostMethod]: Parameters<typeof client.request<M>>[1] };

describe('ExecutorHostClient.request', () => {
  test('answers, for every method, exactly the type of the library’s result codec', () => {
    expectTypeOf<ClientResults>().toEqualTypeOf<ProtocolResults>();
    expectTypeOf<ClientResults['message/send']>().toEqualTypeOf<E.Either<HostRequestError, t.TypeOf<typeof MessageSend.result>>>();
    expectTypeOf<ClientResults['message/send']>().toEqualTypeOf<E.Either<HostRequestError, SendResult>>();
    expectTypeOf<ClientResults['task/create']>().toEqualTypeOf<E.Either<HostRequestError, t.TypeOf<typeof TaskCreate.result>>>();
    expectTypeOf<ClientResults['marketplaces/list']>().toEqualTypeOf<E.Either<HostRequestError, MarketplaceList>>();
    expectTypeOf<ClientResults['plugins/read']>().toEqualTypeOf<E.Either<HostRequestError, { plugin: PluginDetails }>>();
  });

  test('takes, for every method, the library’s params (optional fields may be given as undefined)', () => {
    expectTypeOf<ClientParams>().toEqualTypeOf<{ [M in HostMethod]: HostRequestParams<M> }>();
    expectTypeOf<HostParamsOf<'task/create'>>().toExtend<ClientParams['task/create']>();
    expectTypeOf<HostParamsOf<'auth/recover'>>().toExtend<ClientParams['auth/recover']>();
    expectTypeOf<{ taskId: string; pluginKey: string; connectorSlug: string; toolName: undefined }>().toExtend<ClientParams['auth/recover']>();
    expectTypeOf<{ taskId: number }>().not.toExtend<ClientParams['task/stop']>();
    expectTypeOf<{ source: string; name: undefined; refName: undefined }>().toExtend<ClientParams['marketplaces/add']>();
    expectTypeOf<{ names: number[] }>().not.toExtend<ClientParams['marketplaces/reorder']>();
    expectTypeOf<{ marketplace: string }>().not.toExtend<ClientParams['plugins/read']>();
    expectTypeOf<{ path: string; enabled: boolean }>().toExtend<ClientParams['skills/setEnabled']>();
    expectTypeOf<{ name: string; enabled: boolean }>().toExtend<ClientParams['skills/setEnabled']>();
    expectTypeOf<{ enabled: boolean }>().not.toExtend<ClientParams['skills/setEnabled']>();
    expectTypeOf<{ marketplace: string; plugin: string }>().toExtend<ClientParams['plugins/install']>();
    expectTypeOf<{ marketplace: string; plugin: string; version: string; packagePath: string }>().toExtend<ClientParams['plugins/install']>();
  });

  test('the inventory methods answer the library’s inventory shapes', () => {
    expectTypeOf<ClientResults['plugins/installed']>().toEqualTypeOf<E.Either<HostRequestError, InstalledInventory>>();
    expectTypeOf<ClientResults['plugins/trial']>().toEqualTypeOf<E.Either<HostRequestError, TrialResult>>();
  });

  test('the event stream: events/subscribe takes an optional cursor and answers reset and seq; reconnect answers the same', () => {
    expectTypeOf<ClientResults['events/subscribe']>().toEqualTypeOf<E.Either<HostRequestError, { reset: boolean; seq: number }>>();
    expectTypeOf<{ after: number }>().toExtend<ClientParams['events/subscribe']>();
    expectTypeOf<{ after: undefined }>().toExtend<ClientParams['events/subscribe']>();
    expectTypeOf<{ after: string }>().not.toExtend<ClientParams['events/subscribe']>();
    expectTypeOf<Awaited<ReturnType<ExecutorHostClient['reconnect']>>>().toEqualTypeOf<ClientResults['events/subscribe']>();
    expectTypeOf<ClientResults['cards/pending']>().toEqualTypeOf<E.Either<HostRequestError, { cards: ReadonlyArray<PendingCard> }>>();
  });

  test('only the protocol’s methods can be sent', () => {
    expectTypeOf(client.request).parameter(0).toEqualTypeOf<HostMethod>();
  });
});
