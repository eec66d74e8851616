/**
 * Wework's three runtime permission modes and the Codex thread/turn params each one runs with:
 *
 * | mode          | `permissions`          | `approvalPolicy`                      |
 * | ------------- | ---------------------- | ------------------------------------- |
 * | `read-only`   | `:read-only`           | `on-request`                          |
 * | `workspace`   | `:workspace`           | `on-request`                          |
 * | `full-access` | `:danger-full-access`  | granular, only `mcp_elicitations`     |
 *
 * A task without a persisted mode runs in Full access. A persisted value that is not a mode is
 * an error value: nothing here ever falls back to a more permissive profile; the caller decides.
 *
 * Every function here is pure: plain data in, plain data out.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { AskForApproval, AskForApprovalStrict, ThreadForkParams, ThreadResumeParams, ThreadStartParams, TurnStartParams } from '@wework/codex-protocol';
import { isGranularPolicy, weworkGranularApprovalPolicy } from '@wework/elicitation-mapper';

/** Codec of a persisted permission mode (`modelSelection.options.permissionMode`). */
export const PermissionMode = t.keyof({ 'read-only': null, workspace: null, 'full-access': null }, 'PermissionMode');
/** One of Wework's runtime permission modes. */
export type PermissionMode = t.TypeOf<typeof PermissionMode>;

/** Every permission mode, from the least to the most permissive. */
export const PERMISSION_MODES: ReadonlyArray<PermissionMode> = Object.freeze(['read-only', 'workspace', 'full-access'] as const);

/** The mode of a task that has none persisted (new and historical tasks): Full access. */
export const DEFAULT_PERMISSION_MODE: PermissionMode = 'full-access';

/** The Codex permission profiles the modes use (`permissionProfile/list` ids). */
export type PermissionProfileId = ':read-only' | ':workspace' | ':danger-full-access';

/** The params a permission mode sets on `thread/start`, `thread/resume`, `thread/fork` and `turn/start`. */
export interface PermissionParams {
  readonly permissions: PermissionProfileId;
  /** What we send: the strict protocol type, never a literal this version does not know. */
  readonly approvalPolicy: AskForApprovalStrict;
}

/** A persisted permission mode that is not one of the three. */
export interface UnknownPermissionMode {
  readonly _tag: 'UnknownPermissionMode';
  /** The value as persisted. */
  readonly value: unknown;
  readonly message: string;
}

const PARAMS: Readonly<Record<PermissionMode, PermissionParams>> = Object.freeze({
  'read-only': Object.freeze({ permissions: ':read-only', approvalPolicy: 'on-request' }),
  workspace: Object.freeze({ permissions: ':workspace', approvalPolicy: 'on-request' }),
  'full-access': Object.freeze({ permissions: ':danger-full-access', approvalPolicy: weworkGranularApprovalPolicy }),
});

/**
 * The `permissions` and `approvalPolicy` of a mode.
 *
 * @example
 * ```ts
 * permissionParams('workspace'); // { permissions: ':workspace', approvalPolicy: 'on-request' }
 * permissionParams('full-access').approvalPolicy; // { granular: { ..., mcp_elicitations: true } }
 * ```
 */
export function permissionParams(mode: PermissionMode): PermissionParams {
  return PARAMS[mode];
}

/**
 * The permissiveness rank of each mode: `read-only` (0) < `workspace` (1) < `full-access` (2).
 * A total order; {@link PERMISSION_MODES} lists the modes in it.
 */
export const PERMISSIVENESS: Readonly<Record<PermissionMode, 0 | 1 | 2>> = Object.freeze({ 'read-only': 0, workspace: 1, 'full-access': 2 });

/** The least permissive mode, where anything unreadable falls back to: `read-only`. */
export const LEAST_PERMISSIVE_MODE: PermissionMode = 'read-only';

/**
 * Compares two modes by permissiveness: negative when `a` allows less than `b`, `0` when they
 * are the same mode, positive when `a` allows more. Usable with `Array.prototype.sort`.
 *
 * @example
 * ```ts
 * comparePermissiveness('read-only', 'full-access') < 0; // true
 * [...PERMISSION_MODES].reverse().sort(comparePermissiveness); // ['read-only', 'workspace', 'full-access']
 * ```
 */
export function comparePermissiveness(a: PermissionMode, b: PermissionMode): number {
  return PERMISSIVENESS[a] - PERMISSIVENESS[b];
}

/**
 * Whether switching the mode from `from` to `to` needs the Full access risk confirmation: true
 * exactly for an explicit switch from another mode into Full access. A new task (no previous
 * mode, `undefined`) that starts in Full access by default does not ask, nor does Full access →
 * Full access.
 *
 * @example
 * ```ts
 * needsFullAccessConfirmation('workspace', 'full-access'); // true
 * needsFullAccessConfirmation(undefined, 'full-access'); // false
 * needsFullAccessConfirmation('full-access', 'read-only'); // false
 * ```
 */
export function needsFullAccessConfirmation(from: PermissionMode | undefined, to: PermissionMode): boolean {
  return to === 'full-access' && from !== undefined && from !== 'full-access';
}

/** Longest string echoed in a message; longer ones are described by their length. */
const SHOWN_STRING_LENGTH = 40;

/** A short description of a persisted value for messages: short strings quoted, long ones by length. */
export function describePersistedValue(value: unknown): string {
  if (typeof value === 'string') return value.length <= SHOWN_STRING_LENGTH ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'undefined';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

const show = describePersistedValue;

/**
 * Decodes a persisted permission mode. A missing value (`undefined`) is Full access, as the spec
 * says for new and historical tasks; anything else that is not a mode (`null`, an unknown string,
 * a number...) is `UnknownPermissionMode`, never a guess.
 *
 * @example
 * ```ts
 * decodePermissionMode(undefined); // Right('full-access')
 * decodePermissionMode('workspace'); // Right('workspace')
 * decodePermissionMode('admin'); // Left({ _tag: 'UnknownPermissionMode', value: 'admin', ... })
 * ```
 */
export function decodePermissionMode(persisted: unknown): E.Either<UnknownPermissionMode, PermissionMode> {
  if (persisted === undefined) return E.right(DEFAULT_PERMISSION_MODE);
  return PermissionMode.is(persisted)
    ? E.right(persisted)
    : E.left({
        _tag: 'UnknownPermissionMode',
        value: persisted,
        message: `unknown permission mode ${show(persisted)}: expected one of ${PERMISSION_MODES.map((m) => JSON.stringify(m)).join(', ')} (or no value for Full access)`,
      });
}

/** Params of the four requests a permission mode applies to. */
export type PermissionTarget = ThreadStartParams | ThreadResumeParams | ThreadForkParams | TurnStartParams;

/** `P` with the mode's `permissions` and `approvalPolicy`, and without `sandbox`/`sandboxPolicy` (Codex refuses both together). */
export type WithPermissionMode<P extends PermissionTarget> = Omit<P, 'permissions' | 'approvalPolicy' | 'sandbox' | 'sandboxPolicy'> & PermissionParams;

/**
 * Applies a mode to `thread/start`, `thread/resume`, `thread/fork` or `turn/start` params: sets
 * `permissions` and `approvalPolicy`, and drops `sandbox`/`sandboxPolicy`, which Codex refuses in
 * combination with `permissions`.
 *
 * @example
 * ```ts
 * applyPermissionMode({ threadId: 't1', input: [] }, 'read-only');
 * // { threadId: 't1', input: [], permissions: ':read-only', approvalPolicy: 'on-request' }
 * ```
 */
export function applyPermissionMode<P extends PermissionTarget>(params: P, mode: PermissionMode): WithPermissionMode<P> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key !== 'permissions' && key !== 'approvalPolicy' && key !== 'sandbox' && key !== 'sandboxPolicy') rest[key] = value;
  }
  return { ...(rest as Omit<P, 'permissions' | 'approvalPolicy' | 'sandbox' | 'sandboxPolicy'>), ...permissionParams(mode) };
}

const sameGranular = (a: AskForApproval, b: AskForApproval): boolean =>
  isGranularPolicy(a) && isGranularPolicy(b)
    ? (Object.keys(b.granular) as Array<keyof typeof b.granular>).every((key) => a.granular[key] === b.granular[key])
    : a === b;

/**
 * The mode whose params these are, if any: the inverse of {@link permissionParams}. Useful to
 * read back what a thread runs with (`thread/start` answers `approvalPolicy` and the active profile).
 *
 * @example
 * ```ts
 * permissionModeOf({ permissions: ':workspace', approvalPolicy: 'on-request' }); // 'workspace'
 * permissionModeOf({ permissions: ':workspace', approvalPolicy: 'never' }); // undefined
 * ```
 */
export function permissionModeOf(params: { readonly permissions: string; readonly approvalPolicy: AskForApproval }): PermissionMode | undefined {
  return PERMISSION_MODES.find((mode) => {
    const expected = PARAMS[mode];
    return expected.permissions === params.permissions && sameGranular(params.approvalPolicy, expected.approvalPolicy);
  });
}
