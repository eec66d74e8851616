/**
 * The supervision area of the host protocol: the supervision model held in memory, and inspections in
 * their own ephemeral threads.
 */
import * as E from 'fp-ts/lib/Either.js';
import { HostErrorCode, type HostHandlersPart, type HostParamsOf } from '@wework/host-protocol';
import { describeSupervisionError, type SupervisionError } from '../../supervision/Supervisor.js';
import { empty, ok, type HostCall, type HandlerKit } from './HandlerKit.js';

/** `supervision/setModel`, `supervision/clearModel`, `supervision/inspect`. */
export function supervisionHandlers(kit: HandlerKit): HostHandlersPart<'supervision/setModel' | 'supervision/clearModel' | 'supervision/inspect', HostCall> {
  const { supervision } = kit.services;
  return {
    'supervision/setModel': async (params) => {
      supervision.setModel(params.config);
      return ok({ model: params.config.model });
    },
    'supervision/clearModel': async () => {
      supervision.clearModel();
      return empty();
    },
    'supervision/inspect': kit.withCodex(async (params: HostParamsOf<'supervision/inspect'>) =>
      E.mapLeft((error: SupervisionError) => ({ code: HostErrorCode.SupervisionFailed, message: describeSupervisionError(error), tag: error._tag }))(await supervision.inspect(params)),
    ),
  };
}
