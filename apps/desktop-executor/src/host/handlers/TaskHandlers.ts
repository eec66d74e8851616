/**
 * The tasks area of the host protocol: create, open, list, stop, archive and fork tasks.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { HostHandlersPart, HostParamsOf, TaskRecord } from '@wework/host-protocol';
import { taskFailure } from '@wework/host-errors';
import { ok, type HostCall, type HandlerKit } from './HandlerKit.js';

/** `task/create`, `task/open`, `task/list`, `task/stop`, `task/archive`, `task/fork`. */
export function taskHandlers(kit: HandlerKit): HostHandlersPart<'task/create' | 'task/open' | 'task/list' | 'task/stop' | 'task/archive' | 'task/fork', HostCall> {
  const { tasks } = kit.services;
  return {
    'task/create': kit.withCodex(async (params: HostParamsOf<'task/create'>) => E.bimap(taskFailure, (task: TaskRecord) => ({ task }))(await tasks.create(params))),
    'task/open': async (params) => E.bimap(taskFailure, (task: TaskRecord) => ({ task }))(tasks.open(params.task)),
    'task/list': async () => ok({ tasks: tasks.list() }),
    'task/stop': async (params) => E.bimap(taskFailure, () => ({}))(await tasks.stop(params.taskId)),
    'task/archive': kit.withCodex(async (params: HostParamsOf<'task/archive'>) => E.bimap(taskFailure, () => ({}))(await tasks.archive(params.taskId))),
    'task/fork': kit.withCodex(async (params: HostParamsOf<'task/fork'>) => {
      const forked = await tasks.fork(params.taskId, { newTaskId: params.newTaskId, ...(params.lastTurnId === undefined ? {} : { lastTurnId: params.lastTurnId }) });
      if (E.isLeft(forked)) return E.left(taskFailure(forked.left));
      const { task, model, modelProvider, activePermissionProfile, cwd } = forked.right;
      return ok({ task, model, modelProvider, permissionProfile: activePermissionProfile?.id ?? null, cwd });
    }),
  };
}
