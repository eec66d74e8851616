/**
 * The runtime area of the host protocol: who the executor is, Codex's models, and the Wegent runtime token.
 */
import * as E from 'fp-ts/lib/Either.js';
import { HOST_PROTOCOL_VERSION, type HostHandlersPart } from '@wework/host-protocol';
import { runtimeFailure } from '@wework/host-errors';
import { ok, type HostCall, type HandlerKit } from './HandlerKit.js';

/** `executor/info`, `models/list`, `runtime/setWegentToken`, `runtime/clearWegentToken`. */
export function runtimeHandlers(kit: HandlerKit): HostHandlersPart<'executor/info' | 'models/list' | 'runtime/setWegentToken' | 'runtime/clearWegentToken', HostCall> {
  const { runtime, wegentToken } = kit.services;
  return {
    'executor/info': async () => ok({ executor: 'wework-desktop-executor', protocolVersion: HOST_PROTOCOL_VERSION, codexUserAgent: runtime.current().server.initializeResult.userAgent, runtime: runtime.status() }),
    'models/list': kit.withCodex(async () => {
      const running = await kit.codex();
      if (E.isLeft(running)) return running;
      const catalog = await kit.catalogCache.list(running.right);
      return E.isLeft(catalog) ? E.left(runtimeFailure(catalog.left)) : ok({ models: catalog.right.models });
    }),
    'runtime/setWegentToken': async ({ token, expiresIn }) => ok(wegentToken.set(token, expiresIn)),
    'runtime/clearWegentToken': async () => ok({ cleared: wegentToken.clear() }),
  };
}
