/**
 * The settings area of the host protocol: the user's custom instructions and interaction style, read and
 * written through Codex's `config/read` and `config/batchWrite`.
 */
import * as E from 'fp-ts/lib/Either.js';
import { settingsFailure } from '@wework/host-errors';
import type { HostHandlersPart, HostParamsOf } from '@wework/host-protocol';
import { codexSettings } from '../../settings/CodexSettings.js';
import { empty, ok, type HostCall, type HandlerKit } from './HandlerKit.js';

/** `settings/read`, `settings/write`. */
export function settingsHandlers(kit: HandlerKit): HostHandlersPart<'settings/read' | 'settings/write', HostCall> {
  const { runtime } = kit.services;
  return {
    'settings/read': kit.withCodex(async () => {
      const settings = codexSettings(runtime.current().server.client);
      const instructions = await settings.readInstructions();
      if (E.isLeft(instructions)) return E.left(settingsFailure(instructions.left));
      const style = await settings.readStyle();
      if (E.isLeft(style)) return E.left(settingsFailure(style.left));
      return ok({ instructions: instructions.right, style: style.right });
    }),
    'settings/write': kit.withCodex(async (params: HostParamsOf<'settings/write'>) => {
      const settings = codexSettings(runtime.current().server.client);
      // One write of config.toml for both: a failure (a full disk) leaves neither saved.
      const written = await settings.writeSettings({ ...(params.instructions === undefined ? {} : { instructions: params.instructions }), ...(params.style === undefined ? {} : { style: params.style }) });
      if (E.isLeft(written)) return E.left(settingsFailure(written.left));
      return empty();
    }),
  };
}
