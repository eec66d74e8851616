/**
 * The supervision area of the host protocol (its wire names are `supervision/*`), served by the task
 * inspector: the supervision model held in memory, and inspections in their own ephemeral threads.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { HostHandlersPart, HostParamsOf } from '@wework/host-protocol';
import { hostFailure, type InspectionFault } from '@wework/host-errors';
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
      E.mapLeft((error: InspectionFault) => hostFailure({ area: 'inspection', error }))(await inspector.inspect(params)),
    ),
  };
}
