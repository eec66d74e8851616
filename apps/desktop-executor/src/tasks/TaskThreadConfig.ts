/**
 * What a task's thread calls carry: the permission mode (from `modelSelection.options.permissionMode`,
 * failing closed to Read only), the model and provider (the task's selection, or its local model
 * router registration), and the workspace. A routed task whose registration is gone is an error:
 * never a silent fallback to the default model, never a registration rebuilt from persisted data.
 *
 * Every function here is pure.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { AskForApprovalStrict, JsonValue } from '@wework/codex-protocol';
import { permissionParamsForTask, type PermissionCall, type UnknownPermissionModeWarning } from '@wework/approval-policy';
import type { ResumeParams, TurnCallParams } from '../runtime/LocalRuntime.js';
import type { ModelRouterRegistration, ModelRouterRegistry } from './ModelRouterRegistry.js';
import type { TaskRecord } from '@wework/host-protocol';

/** A routed task whose router registration is not there. */
export interface ModelRouterRegistrationMissing {
  readonly _tag: 'ModelRouterRegistrationMissing';
  readonly taskId: string;
  readonly routeId: string;
}

/** The params shared by `thread/start`, `thread/resume`, `thread/fork` (and, without provider and workspace, `turn/start`). */
export interface TaskThreadConfig {
  readonly permissions?: string | null;
  readonly approvalPolicy?: AskForApprovalStrict | null;
  readonly model?: string;
  readonly modelProvider?: string;
  readonly cwd: string;
  /** Config overrides: the thread environment's (the runtime token) and the router's provider table for a routed task. */
  readonly config?: { [key: string]: JsonValue };
  /** The router registration the thread is bound to, for a routed task. */
  readonly registration: ModelRouterRegistration | null;
  readonly warning?: UnknownPermissionModeWarning;
}

/** `a` and `b` together, or nothing when both are empty. */
const mergedConfig = (a: { readonly [key: string]: JsonValue }, b: { readonly [key: string]: JsonValue }): { config?: { [key: string]: JsonValue } } =>
  Object.keys(a).length + Object.keys(b).length === 0 ? {} : { config: { ...a, ...b } };

/**
 * The thread params of one call of a task; `environment` holds the config overrides every thread of a
 * task carries (the shell environment's runtime token).
 * @example
 * threadConfigFor({ taskId: 't1', threadId: 'thr', archived: false, modelSelection: { model: 'gpt-5.5', options: { permissionMode: 'workspace' } }, executionRequest: { workspace: '/repo' } }, 'thread/fork', registry);
 * // Right({ permissions: ':workspace', approvalPolicy: 'on-request', model: 'gpt-5.5', cwd: '/repo', registration: null })
 */
export function threadConfigFor(
  task: Pick<TaskRecord, 'taskId' | 'modelSelection' | 'executionRequest'>,
  call: PermissionCall,
  registry: ModelRouterRegistry,
  environment: { readonly [key: string]: JsonValue } = {},
): E.Either<ModelRouterRegistrationMissing, TaskThreadConfig> {
  const permission = permissionParamsForTask(task, call);
  const base = { ...permission.params, cwd: task.executionRequest.workspace, ...(permission.warning === undefined ? {} : { warning: permission.warning }) };
  const route = task.executionRequest.modelRouter ?? null;
  if (route !== null) {
    const registration = registry.lookup(task.taskId);
    if (registration === null || registration.routeId !== route.routeId) return E.left({ _tag: 'ModelRouterRegistrationMissing', taskId: task.taskId, routeId: route.routeId });
    return E.right({
      ...base,
      model: registration.model,
      modelProvider: registration.providerId,
      ...mergedConfig(environment, { [`model_providers.${registration.providerId}`]: registration.providerConfig as JsonValue }),
      registration,
    });
  }
  const { model, modelProvider } = task.modelSelection;
  return E.right({
    ...base,
    ...(model === null ? {} : { model }),
    ...(modelProvider === undefined || modelProvider === null ? {} : { modelProvider }),
    ...mergedConfig(environment, {}),
    registration: null,
  });
}

/** The params of `thread/start`, `thread/resume` and `thread/fork` from a thread config. */
export function threadParamsOf(config: TaskThreadConfig): Pick<ResumeParams, 'permissions' | 'approvalPolicy' | 'model' | 'modelProvider' | 'config'> & { cwd: string } {
  return {
    ...(config.permissions === undefined ? {} : { permissions: config.permissions }),
    ...(config.approvalPolicy === undefined ? {} : { approvalPolicy: config.approvalPolicy }),
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(config.modelProvider === undefined ? {} : { modelProvider: config.modelProvider }),
    ...(config.config === undefined ? {} : { config: config.config }),
    cwd: config.cwd,
  };
}

/**
 * The overrides `turn/start` carries (permissions, approval policy, model), and them as one comparable key
 * (the thread lifecycle's `TurnStarting` compares it with the key of the thread's previous turn).
 */
export function turnOverridesOf(config: TaskThreadConfig): { readonly params: TurnCallParams; readonly key: string } {
  const { permissions, approvalPolicy, model } = config;
  const params = { ...(permissions === undefined ? {} : { permissions }), ...(approvalPolicy === undefined ? {} : { approvalPolicy }), ...(model === undefined ? {} : { model }) };
  return { params, key: JSON.stringify([permissions ?? null, approvalPolicy ?? null, model ?? null]) };
}
