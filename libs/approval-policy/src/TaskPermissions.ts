/**
 * The runtime half of the permission modes: the `permissions` and `approvalPolicy` a request of a
 * persisted task runs with, read from the task's `modelSelection.options.permissionMode`.
 *
 * The rule is the spec's "must not fall back to a more permissive profile":
 *
 * - no mode persisted (no `modelSelection`, no `options`, no `permissionMode`) → Full access, the
 *   default of new and historical tasks, without a warning;
 * - a known mode → exactly that mode;
 * - anything else (an unknown string, `null`, a number, a `modelSelection` or `options` that is not
 *   an object, a task that is not an object) → Read only, the least permissive mode, with an
 *   `UnknownPermissionMode` warning for the log.
 *
 * The four requests carry the same two fields: `thread/start`, `thread/resume`, `thread/fork` and
 * `turn/start` all have `permissions?: string | null` and `approvalPolicy?: AskForApproval | null`
 * in the generated protocol types (they differ only in the legacy field that cannot be combined
 * with `permissions`: `sandbox` on the thread requests, `sandboxPolicy` on `turn/start`, which these
 * params never set). So the params are the same for every call kind; the call is kept in the
 * result for logs.
 *
 * Every function here is pure: JSON in, plain data out. Nothing throws, whatever the input.
 */
import * as t from 'io-ts';
import { own } from '@wework/codex-protocol';
import { DEFAULT_PERMISSION_MODE, LEAST_PERMISSIVE_MODE, PERMISSION_MODES, PermissionMode, describePersistedValue, permissionParams, type PermissionParams } from './PermissionMode.js';

/** The requests a permission mode applies to. */
export type PermissionCall = 'thread/start' | 'thread/resume' | 'thread/fork' | 'turn/start';

/** Why a persisted task did not give a mode: logged by the caller, the task runs in Read only. */
export interface UnknownPermissionModeWarning {
  readonly _tag: 'UnknownPermissionMode';
  /** Where the unreadable value is, e.g. `modelSelection.options.permissionMode`. */
  readonly path: string;
  /** The value described, never echoed at length (`"admin"`, `a string of 812 characters`, `null`, `an array`). */
  readonly description: string;
  /** The mode the task runs with instead: always the least permissive one. */
  readonly fallback: 'read-only';
  readonly message: string;
}

/** The permission params of one request of a persisted task. */
export interface TaskPermissionParams {
  /** The request they are for. */
  readonly call: PermissionCall;
  /** The mode the request runs with. */
  readonly mode: PermissionMode;
  /** `permissions` and `approvalPolicy` to set on the request (drop `sandbox` / `sandboxPolicy`). */
  readonly params: PermissionParams;
  /** Present when the persisted value could not be read and the task fell back to Read only. */
  readonly warning?: UnknownPermissionModeWarning;
}

/** The object levels on the way to the mode; only these matter, every other key is ignored. */
const Level = t.UnknownRecord;
const PATH = ['modelSelection', 'options', 'permissionMode'] as const;

type Lookup = { readonly _tag: 'Missing' } | { readonly _tag: 'Found'; readonly value: unknown } | { readonly _tag: 'Corrupt'; readonly path: string; readonly value: unknown };

/** Walks `modelSelection.options.permissionMode` leniently: a missing level is "missing", a level that is not an object is corrupt. */
function lookupMode(persisted: unknown): Lookup {
  let current: unknown = persisted;
  for (let depth = 0; depth < PATH.length; depth += 1) {
    if (!Level.is(current)) return { _tag: 'Corrupt', path: depth === 0 ? '(task)' : PATH.slice(0, depth).join('.'), value: current };
    const next = own(current, PATH[depth] as string);
    if (next === undefined) return { _tag: 'Missing' };
    current = next;
  }
  return { _tag: 'Found', value: current };
}

const failClosed = (call: PermissionCall, path: string, value: unknown): TaskPermissionParams => {
  const description = describePersistedValue(value);
  return {
    call,
    mode: LEAST_PERMISSIVE_MODE,
    params: permissionParams(LEAST_PERMISSIVE_MODE),
    warning: {
      _tag: 'UnknownPermissionMode',
      path,
      description,
      fallback: 'read-only',
      message: `${path} is ${description}, not one of ${PERMISSION_MODES.map((m) => JSON.stringify(m)).join(', ')}: running ${typeof call === 'string' ? call : 'the request'} in Read only`,
    },
  };
};

/**
 * The `permissions` and `approvalPolicy` for `call` of a persisted task (any JSON: the stored task
 * record, decoded leniently; only `modelSelection.options.permissionMode` is read). Missing → Full
 * access; a known mode → itself; anything unreadable → Read only with a warning. Never more
 * permissive than what was persisted.
 *
 * @example
 * ```ts
 * permissionParamsForTask({ modelSelection: { options: { permissionMode: 'workspace' } } }, 'turn/start');
 * // { call: 'turn/start', mode: 'workspace', params: { permissions: ':workspace', approvalPolicy: 'on-request' } }
 * permissionParamsForTask({ title: 'old task' }, 'thread/resume').mode; // 'full-access'
 * const corrupt = permissionParamsForTask({ modelSelection: { options: { permissionMode: 'admin' } } }, 'thread/resume');
 * // corrupt.mode === 'read-only'; corrupt.warning?._tag === 'UnknownPermissionMode'
 * ```
 */
export function permissionParamsForTask(persisted: unknown, call: PermissionCall): TaskPermissionParams {
  const found = lookupMode(persisted);
  switch (found._tag) {
    case 'Missing':
      return { call, mode: DEFAULT_PERMISSION_MODE, params: permissionParams(DEFAULT_PERMISSION_MODE) };
    case 'Corrupt':
      return failClosed(call, found.path, found.value);
    case 'Found':
      return PermissionMode.is(found.value) ? { call, mode: found.value, params: permissionParams(found.value) } : failClosed(call, PATH.join('.'), found.value);
  }
}
