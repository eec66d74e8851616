/**
 * The supervision area of the host protocol (its wire names are `supervision/*`), served by the task
 * inspector: the supervision model held in memory, and inspections in their own ephemeral threads.
 */
import * as E from 'fp-ts/lib/Either.js';
import { HostErrorCode, type HostHandlersPart, type HostParamsOf } from '@wework/host-protocol';
import { describeInspectionError, type InspectionError } from '../../inspection/TaskInspector.js';
import { empty, ok, type HostCall, type HandlerKit } from './HandlerKit.js';

/** `supervision/setModel`, `supervision/clearModel`, `supervision/inspect`. */
export function supervisionHandlers(kit: HandlerKit): HostHandlersPart<'supervision/setModel' | 'supervision/clearModel' | 'supervision/inspect', HostCall> {
  const { inspector } = kit.services;
  return {
    'supervision/setModel': async (params) => {
      inspector.setModel(params.config);
      return ok({ model: params.config.model });
    },
    'supervision/clearModel': async () => {
      inspector.clearModel();
      return empty();
    },
    'supervision/inspect': kit.withCodex(async (params: HostParamsOf<'supervision/inspect'>) =>
      E.mapLeft((error: InspectionError) => ({ code: HostErrorCode.SupervisionFailed, message: describeInspectionError(error), tag: error._tag }))(await inspector.inspect(params)),
    ),
  };
}
